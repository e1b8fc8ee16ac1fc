import { and, desc, eq, sql } from "drizzle-orm";
import { toCsv } from "../../scripts/lib/csv";
import type { Db, DbOrTx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import { snapshots, type Snapshot } from "../schema";
import { loadOfflineInput } from "../catalog/offline-input";
import { loadCampaignData, pseudonym } from "../campaigns/campaign-data";
import { campaignProgress, getCampaign } from "../campaigns/campaigns";
import { campaignGold } from "../campaigns/campaign-truth";
import { getExperiment } from "../experiments/experiments";
import { sqlStreamTotals } from "../experiments/online-sql";
import { DEFAULT_KS } from "../../scripts/offline/report";
import { packOfflineInput } from "../../scripts/offline/pack";
import { type IntervalKind } from "../../scripts/online/report";
import { DEFAULT_N_STAR } from "../../scripts/online/sequential";
import { viewParameters, type OfflineView } from "../../scripts/offline/view";
import { cumulativeDailyWithIntervals } from "../../scripts/online/daily-intervals";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { packStreamTotals } from "../../scripts/online/pack";
import { canonicalJson, sha256 } from "../../scripts/lib/canonical";
import { resultRows } from "../../scripts/results/rows";
import { clickModelSettings, loadExperimentClicksInput } from "../experiments/experiment-clicks";

export class SnapshotError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface SnapshotRequest {
  kind: Snapshot["kind"];
  campaign?: number;
  experiment?: string;
  ks?: number[];
  B?: number;
  seed?: string;
  /** Online: the differences' intervals, fixed (bootstrap, default) or sequential (always valid). */
  intervals?: IntervalKind;
  /** Online, sequential intervals: the tuning N* (default 5,000). */
  nStar?: number;
  /** Offline only: window, stratification, conflict exclusion (recorded only when not the default). */
  view?: OfflineView;
}

/** The newest import, rating and event time: what a result saw, and how to tell data changed since. */
export async function dataWindow(db: DbOrTx) {
  const [row] = await db.execute<{
    latest_import: string | null;
    latest_rating: string | null;
    latest_event: string | null;
    lists: number;
    ratings: number;
    events: number;
    gold_items: number;
    latest_truth: string | null;
  }>(sql`select
    greatest((select max(updated_at) from proposals), (select max(updated_at) from candidates), (select max(imported_at) from ranked_lists))::text as latest_import,
    (select max(updated_at) from ratings)::text as latest_rating,
    (select max(received_at) from events)::text as latest_event,
    (select count(*)::int from list_items) as lists, (select count(*)::int from ratings) as ratings, (select count(*)::int from events) as events,
    (select count(*)::int from campaign_truth) as gold_items, (select max(set_at) from campaign_truth)::text as latest_truth`);
  return {
    latestImport: row.latest_import,
    latestRating: row.latest_rating,
    latestEvent: row.latest_event,
    listItems: row.lists,
    ratings: row.ratings,
    events: row.events,
    // Known grades (gold items) change a campaign's gold figures: attaching, changing or removing one moves the window.
    goldItems: row.gold_items,
    latestTruth: row.latest_truth,
  };
}

/**
 * The parameters a request stands for, with every default filled in as the dashboards fill it: the
 * offline report's cutoffs, an experiment's own seed, a campaign's `campaign-<id>` seed, B = 1000.
 * Cheap (no bootstrap), so a freeze can find an existing snapshot before computing anything.
 */
export async function snapshotParameters(db: DbOrTx, request: SnapshotRequest) {
  const B = request.B ?? 1000;
  if (request.kind === "offline")
    return {
      kind: "offline" as const,
      ks: request.ks ?? DEFAULT_KS,
      B,
      seed: request.seed ?? "assay",
      ...(request.view ? viewParameters(request.view) : {}),
    };
  if (request.kind === "expert") {
    if (!request.campaign) throw new SnapshotError("An expert snapshot needs a campaign.");
    const campaign = await getCampaign(db, request.campaign);
    if (!campaign) throw new SnapshotError(`There is no campaign ${request.campaign}.`, 404);
    return {
      kind: "expert" as const,
      campaign: campaign.id,
      ks: request.ks ?? [5, 10, 20],
      B,
      seed: request.seed ?? `campaign-${campaign.id}`,
    };
  }
  if (!request.experiment)
    throw new SnapshotError(
      request.kind === "clicks"
        ? "A click-model snapshot needs an experiment."
        : "An online snapshot needs an experiment.",
    );
  const experiment = await getExperiment(db, request.experiment);
  if (!experiment) throw new SnapshotError(`There is no experiment ${request.experiment}.`, 404);
  // Click models: the page's fit (split seed, test share, EM passes, ranks); no bootstrap, so no B.
  if (request.kind === "clicks")
    return {
      kind: "clicks" as const,
      experiment: experiment.key,
      ...clickModelSettings(experiment, request.seed),
    };
  const control = experiment.arms.find((a) => a.isControl)!.key;
  if (experiment.kind === "interleaving")
    throw new SnapshotError(
      `Experiment ${experiment.key} is an interleaving experiment; its page has no A/B result to freeze.`,
    );
  const intervals = request.intervals ?? "fixed";
  const nStar = intervals === "sequential" ? (request.nStar ?? DEFAULT_N_STAR) : undefined;
  return {
    kind: "online" as const,
    experiment: experiment.key,
    B,
    seed: request.seed ?? experiment.seed,
    control,
    intervals,
    ...(nStar !== undefined ? { nStar } : {}),
  };
}

/**
 * Computes a result with the given parameters, exactly as the dashboards and the CLI do: the data is
 * read here, the bootstrap runs where `run` puts it (the app's worker pool; this thread for the CLI).
 */
export async function computeResult(db: Db, request: SnapshotRequest, run: HeavyRunner = runInProcess) {
  const parameters = await snapshotParameters(db, request);
  if (parameters.kind === "offline") {
    const { kind: _kind, ks, B, seed, ...view } = parameters;
    const input = await loadOfflineInput(db);
    if (input.systems.length === 0 || input.gold.size === 0)
      throw new SnapshotError("There are no lists and gold committees to report on yet.");
    return {
      parameters,
      result: await run("offlineReport", {
        packed: packOfflineInput(input),
        options: { ks, B, seed, ...view },
      }),
    };
  }
  if (parameters.kind === "expert") {
    const { ks, B, seed } = parameters;
    const campaign = (await getCampaign(db, parameters.campaign))!;
    const { pairs, proposals, systems } = await loadCampaignData(db, campaign.id);
    // The grades in the order and under the rater ids the campaign's dashboard uses (campaignDashboard):
    // the agreement bootstrap depends on both, and the snapshot must show the page's interval.
    const judged = (await campaignProgress(db, campaign.id)).grades
      .filter((g) => g.grade !== null)
      .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
    const figures = await run("campaignFigures", {
      ratings: judged,
      data: { pairs, proposals, systems },
      options: { ks, B, seed },
    });
    // Experts under the pseudonyms of the exports, never their ids or names (as on the dashboard).
    const agreement = figures.agreement && {
      ...figures.agreement,
      leaveOneOut: figures.agreement.leaveOneOut.map((l) => ({
        ...l,
        rater: pseudonym(campaign.id, Number(l.rater)),
      })),
    };
    // The gold figures as the page shows them (same B and seed), waited for here; null without gold items.
    const gold = await campaignGold(
      db,
      campaign.id,
      { grades: (await campaignProgress(db, campaign.id)).grades, pairs },
      { B, seed },
      (input) => run("goldFigures", input),
      (id) => pseudonym(campaign.id, id),
    );
    return {
      parameters,
      result: {
        campaign: { id: campaign.id, name: campaign.name },
        results: figures.results!,
        agreement,
        gold,
      },
    };
  }
  if (parameters.kind === "clicks") {
    const { seed, testShare, iterations, maxRank } = parameters;
    const experiment = (await getExperiment(db, parameters.experiment))!;
    const settings = { seed, testShare, iterations, maxRank };
    const result = await run("experimentClicks", await loadExperimentClicksInput(db, experiment, settings));
    if (!result.fit)
      throw new SnapshotError(
        `Experiment ${experiment.key} has too few convener sessions (${result.sessions}) to fit click models.`,
      );
    return { parameters, result };
  }
  const { B, seed, control, intervals } = parameters;
  const experiment = (await getExperiment(db, parameters.experiment))!;
  // The per-session path the dashboard uses (tested equal to `assay online` on the exported events).
  const totals = await sqlStreamTotals(db, experiment);
  if (totals.events === 0) throw new SnapshotError(`Experiment ${experiment.key} has no events yet.`);
  const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
  // Sequential intervals only when asked for, as the dashboard does (a fixed report stays as it always was).
  const sequential = intervals === "sequential" ? { intervalKind: intervals, nStar: parameters.nStar } : {};
  const report = await run("onlineReport", {
    packed: packStreamTotals(totals),
    options: { weights, control, intervals: true, B, seed, ...sequential },
  });
  return {
    parameters,
    result: {
      experiment: { key: experiment.key, name: experiment.name },
      ...report,
      daily: cumulativeDailyWithIntervals(totals.sessions),
    },
  };
}

type Window = Awaited<ReturnType<typeof dataWindow>>;

/** The snapshot of this kind with exactly these parameters on exactly this data window, if one was frozen. */
async function findSnapshot(db: DbOrTx, kind: Snapshot["kind"], parameters: object, window: Window) {
  const [row] = await db
    .select()
    .from(snapshots)
    .where(
      and(
        eq(snapshots.kind, kind),
        sql`${snapshots.parameters} = ${JSON.stringify(parameters)}::jsonb`,
        sql`${snapshots.dataWindow} = ${JSON.stringify(window)}::jsonb`,
      ),
    )
    .orderBy(snapshots.id)
    .limit(1);
  return row;
}

/**
 * Freezes a result: computed now, stored with its parameters, data window and SHA-256; never changed.
 * Idempotent: the same parameters on the same data window return the snapshot already frozen
 * (`created: false`), found before computing and again under an advisory lock before inserting, so
 * two concurrent freezes (a double-click) make one row and one audit entry. The snapshot names its
 * creator (the user's name, or "cli"); the row and its audit entry are written together, after the
 * computation, so a long bootstrap holds no transaction open.
 */
export async function createSnapshot(
  db: Db,
  actor: AuditActor,
  request: SnapshotRequest,
  run: HeavyRunner = runInProcess,
) {
  const [parameters, window] = await Promise.all([snapshotParameters(db, request), dataWindow(db)]);
  const existing = await findSnapshot(db, parameters.kind, parameters, window);
  if (existing) return { ...existing, created: false };
  const { result } = await computeResult(db, request, run);
  // A result computed while data arrived may not match the window read before: refuse rather than mislabel it.
  if (canonicalJson(await dataWindow(db)) !== canonicalJson(window)) {
    throw new SnapshotError("The data changed while the snapshot was computed; freeze again.", 409);
  }
  const canonical = JSON.parse(canonicalJson(result));
  const digest = sha256(canonicalJson(result));
  const by =
    actor === "cli"
      ? { createdBy: null, createdByLabel: "cli" }
      : { createdBy: actor.id, createdByLabel: actor.name };
  return db.transaction(async (tx) => {
    // Snapshots are immutable (no upsert, no delete): serialise freezes of the same parameters instead.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`assay.snapshot:${sha256(canonicalJson(parameters))}`}))`,
    );
    const frozen = await findSnapshot(tx, parameters.kind, parameters, window);
    if (frozen) return { ...frozen, created: false };
    const [row] = await tx
      .insert(snapshots)
      .values({
        kind: request.kind,
        parameters,
        dataWindow: window,
        result: canonical,
        sha256: digest,
        ...by,
      })
      .returning();
    await recordAudit(tx, actor, "snapshot.create", `snapshot ${row.id}`, {
      kind: row.kind,
      parameters,
      sha256: digest,
    });
    return { ...row, created: true };
  });
}

/** What a snapshot is of, for pickers: the experiment's key, the campaign's name, or "offline report". */
const subject = sql<string>`case ${snapshots.kind} when 'offline' then 'offline report'
  when 'expert' then coalesce(${snapshots.result}->'campaign'->>'name', 'campaign ' || (${snapshots.parameters}->>'campaign'))
  else ${snapshots.parameters}->>'experiment' end`;

/** Every snapshot, newest first, with its subject (never its result, which can be large). */
export async function listSnapshots(db: DbOrTx) {
  return db
    .select({
      id: snapshots.id,
      kind: snapshots.kind,
      subject,
      parameters: snapshots.parameters,
      sha256: snapshots.sha256,
      createdByLabel: snapshots.createdByLabel,
      createdAt: snapshots.createdAt,
    })
    .from(snapshots)
    .orderBy(desc(snapshots.createdAt), desc(snapshots.id));
}

/** A snapshot as a picker shows it: kind, subject, when (UTC, to the minute) and who froze it. */
export function snapshotLabel(s: {
  id: number;
  kind: string;
  subject: string;
  createdAt: Date;
  createdByLabel: string;
}) {
  return `#${s.id} · ${s.kind} · ${s.subject} · ${s.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${s.createdByLabel}`;
}

export async function getSnapshot(db: DbOrTx, id: number): Promise<Snapshot> {
  const [row] = await db.select().from(snapshots).where(eq(snapshots.id, id));
  if (!row) throw new SnapshotError(`There is no snapshot ${id}.`, 404);
  return row;
}

/** The interchange document of DESIGN.md: schema assay.snapshot/v1. */
export function snapshotDocument(s: Snapshot) {
  return {
    schema: "assay.snapshot/v1",
    id: s.id,
    kind: s.kind,
    parameters: s.parameters,
    dataWindow: s.dataWindow,
    createdBy: s.createdByLabel,
    createdAt: s.createdAt.toISOString(),
    sha256: s.sha256,
    result: s.result,
  };
}

export type SnapshotRow = [string, string, string, number | null, number | null, number | null];
export const snapshotColumns = ["system_or_arm", "group", "measure", "value", "ci_lower", "ci_upper"];

/** The result flattened: one row per (system or arm, group, measure), with value and interval. */
export function snapshotRows(s: Pick<Snapshot, "kind" | "result">): SnapshotRow[] {
  return resultRows(s.kind, s.result).map((r) => [r.system, r.group, r.measure, r.value, r.lower, r.upper]);
}

/** The same rows as CSV. */
export function snapshotCsv(s: Snapshot): string {
  return toCsv(snapshotColumns, snapshotRows(s)) + "\r\n";
}

/**
 * The figures of two snapshots side by side, matched by (system or arm, group, measure). Only two of
 * one kind compare: an offline report and an experiment share no figure, so every row would "differ".
 */
export function compareSnapshots(a: Pick<Snapshot, "kind" | "result">, b: Pick<Snapshot, "kind" | "result">) {
  if (a.kind !== b.kind) {
    const article = (kind: string) => (/^[aeiou]/.test(kind) ? "an" : "a");
    throw new SnapshotError(
      `${article(a.kind).replace("a", "A")} ${a.kind} snapshot cannot be compared with ${article(b.kind)} ${b.kind} one; pick two of the same kind.`,
    );
  }
  const key = (r: SnapshotRow) => `${r[0]}\u0000${r[1]}\u0000${r[2]}`;
  const aRows = snapshotRows(a);
  const bRows = snapshotRows(b);
  const inA = new Set(aRows.map(key));
  const bByKey = new Map(bRows.map((r) => [key(r), r]));
  return [
    ...aRows.map((r) => ({
      system: r[0],
      group: r[1],
      measure: r[2],
      a: r[3],
      b: bByKey.get(key(r))?.[3] ?? null,
    })),
    ...bRows
      .filter((r) => !inA.has(key(r)))
      .map((r) => ({ system: r[0], group: r[1], measure: r[2], a: null, b: r[3] })),
  ];
}
