import { desc, eq, sql } from "drizzle-orm";
import { toCsv } from "../scripts/lib/csv";
import type { Db, DbOrTx } from "./client";
import { recordAudit, type AuditActor } from "./audit";
import { snapshots, type Snapshot } from "./schema";
import { loadOfflineInput } from "./offline";
import { loadCampaignData } from "./campaign-data";
import { getCampaign } from "./campaigns";
import { getExperiment } from "./experiments";
import { sqlStreamTotals } from "./online-sql";
import { DEFAULT_KS } from "../scripts/metrics/offline";
import { packOfflineInput } from "../scripts/metrics/offline-pack";
import { cumulativeDailyFromSessions } from "../scripts/metrics/online";
import { runInProcess, type HeavyRunner } from "../scripts/heavy/tasks";
import { packStreamTotals } from "../scripts/metrics/online-pack";
import { canonicalJson, sha256 } from "../scripts/lib/canonical";
import { resultRows } from "../app/utils/result-rows";

export class SnapshotError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface SnapshotRequest {
  kind: "offline" | "expert" | "online";
  campaign?: number;
  experiment?: string;
  ks?: number[];
  B?: number;
  seed?: string;
}

/** The newest import, rating and event time: what a result saw, and how to tell data changed since. */
export async function dataWindow(db: DbOrTx) {
  const [row] = await db.execute<{ latest_import: string | null; latest_rating: string | null; latest_event: string | null; lists: number; ratings: number; events: number }>(sql`select
    greatest((select max(updated_at) from proposals), (select max(updated_at) from candidates), (select max(imported_at) from ranked_lists))::text as latest_import,
    (select max(updated_at) from ratings)::text as latest_rating,
    (select max(received_at) from events)::text as latest_event,
    (select count(*)::int from list_items) as lists, (select count(*)::int from ratings) as ratings, (select count(*)::int from events) as events`);
  return {
    latestImport: row.latest_import,
    latestRating: row.latest_rating,
    latestEvent: row.latest_event,
    listItems: row.lists,
    ratings: row.ratings,
    events: row.events,
  };
}

/**
 * Computes a result with the given parameters, exactly as the dashboards and the CLI do: the data is
 * read here, the bootstrap runs where `run` puts it (the app's worker pool; this thread for the CLI).
 */
export async function computeResult(db: Db, request: SnapshotRequest, run: HeavyRunner = runInProcess) {
  const B = request.B ?? 2000;
  const seed = request.seed ?? "assay";
  if (request.kind === "offline") {
    const ks = request.ks ?? DEFAULT_KS;
    const input = await loadOfflineInput(db);
    if (input.systems.length === 0 || input.gold.size === 0) throw new SnapshotError("There are no lists and gold committees to report on yet.");
    return { parameters: { kind: "offline", ks, B, seed }, result: await run("offlineReport", { packed: packOfflineInput(input), options: { ks, B, seed } }) };
  }
  if (request.kind === "expert") {
    if (!request.campaign) throw new SnapshotError("An expert snapshot needs a campaign.");
    const campaign = await getCampaign(db, request.campaign);
    if (!campaign) throw new SnapshotError(`There is no campaign ${request.campaign}.`, 404);
    const ks = request.ks ?? [5, 10, 20];
    const { pairs, proposals, systems } = await loadCampaignData(db, campaign.id);
    const judged = pairs.flatMap((p) => p.grades.filter((g) => g.grade !== null).map((g) => ({ item: String(p.itemId), rater: g.expert, value: g.grade! })));
    const figures = await run("campaignFigures", { ratings: judged, data: { pairs, proposals, systems }, options: { ks, B, seed } });
    return {
      parameters: { kind: "expert", campaign: campaign.id, ks, B, seed },
      result: { campaign: { id: campaign.id, name: campaign.name }, results: figures.results!, agreement: figures.agreement },
    };
  }
  if (!request.experiment) throw new SnapshotError("An online snapshot needs an experiment.");
  const experiment = await getExperiment(db, request.experiment);
  if (!experiment) throw new SnapshotError(`There is no experiment ${request.experiment}.`, 404);
  // The per-session path the dashboard uses (tested equal to `assay online` on the exported events).
  const totals = await sqlStreamTotals(db, experiment);
  if (totals.events === 0) throw new SnapshotError(`Experiment ${experiment.key} has no events yet.`);
  const control = experiment.arms.find((a) => a.isControl)!.key;
  const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
  const report = await run("onlineReport", { packed: packStreamTotals(totals), options: { weights, control, intervals: true, B, seed } });
  return {
    parameters: { kind: "online", experiment: experiment.key, B, seed, control },
    result: { experiment: { key: experiment.key, name: experiment.name }, ...report, daily: cumulativeDailyFromSessions(totals.sessions) },
  };
}

/**
 * Freezes a result: computed now, stored with its parameters, data window and SHA-256; never changed.
 * The snapshot names its creator (the user's name, or "cli"); the row and its audit entry are written
 * together, after the computation, so a long bootstrap holds no transaction open.
 */
export async function createSnapshot(db: Db, actor: AuditActor, request: SnapshotRequest, run: HeavyRunner = runInProcess) {
  const [{ parameters, result }, window] = await Promise.all([computeResult(db, request, run), dataWindow(db)]);
  const canonical = JSON.parse(canonicalJson(result));
  const digest = sha256(canonicalJson(result));
  const by = actor === "cli" ? { createdBy: null, createdByLabel: "cli" } : { createdBy: actor.id, createdByLabel: actor.name };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(snapshots)
      .values({ kind: request.kind, parameters, dataWindow: window, result: canonical, sha256: digest, ...by })
      .returning();
    await recordAudit(tx, actor, "snapshot.create", `snapshot ${row.id}`, { kind: row.kind, parameters, sha256: digest });
    return row;
  });
}

export async function listSnapshots(db: DbOrTx) {
  return db
    .select({ id: snapshots.id, kind: snapshots.kind, parameters: snapshots.parameters, sha256: snapshots.sha256, createdByLabel: snapshots.createdByLabel, createdAt: snapshots.createdAt })
    .from(snapshots)
    .orderBy(desc(snapshots.createdAt));
}

export async function getSnapshot(db: DbOrTx, id: number): Promise<Snapshot> {
  const [row] = await db.select().from(snapshots).where(eq(snapshots.id, id));
  if (!row) throw new SnapshotError(`There is no snapshot ${id}.`, 404);
  return row;
}

/** The interchange document of DESIGN.md: schema assay.snapshot/v1. */
export function snapshotDocument(s: Snapshot) {
  return { schema: "assay.snapshot/v1", id: s.id, kind: s.kind, parameters: s.parameters, dataWindow: s.dataWindow, createdBy: s.createdByLabel, createdAt: s.createdAt.toISOString(), sha256: s.sha256, result: s.result };
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
