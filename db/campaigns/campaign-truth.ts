import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import { campaignItems, campaignTruth, candidates, proposals } from "../schema";
import { CampaignError } from "./campaigns";
import type { HeavyInput, HeavyOutput } from "../../scripts/workers/heavy-tasks";
import { aggregationMethods, type AggregationMethod } from "../../scripts/judgement/aggregate";
import { gradesSavedAt, type GradesSaved } from "../../scripts/judgement/learning-curve";

/**
 * Each pair's text for the text-aware figures: the candidate's public profile as the expert's card
 * shows it (expertise keywords, then the summary), never a name or affiliation. Pairs whose candidate
 * has neither are left out.
 */
async function itemTexts(db: DbOrTx, campaignId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ itemId: campaignItems.id, keywords: candidates.keywords, summary: candidates.summary })
    .from(campaignItems)
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .where(eq(campaignItems.campaignId, campaignId));
  return new Map(
    rows
      .map((r) => [r.itemId, `${r.keywords.join(" ")}\n${r.summary}`.trim()] as const)
      .filter(([, text]) => text !== ""),
  );
}

/** A gold item as the admin's page lists it: the pair by its external ids and the known grade. */
export interface TruthRow {
  itemId: number;
  proposal: string;
  candidate: string;
  grade: number;
}

/** The gold items of a campaign, ordered by proposal and candidate. */
export async function listTruth(db: DbOrTx, campaignId: number): Promise<TruthRow[]> {
  return db
    .select({
      itemId: campaignTruth.itemId,
      proposal: proposals.externalId,
      candidate: candidates.externalId,
      grade: campaignTruth.grade,
    })
    .from(campaignTruth)
    .innerJoin(campaignItems, eq(campaignItems.id, campaignTruth.itemId))
    .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .where(eq(campaignItems.campaignId, campaignId))
    .orderBy(asc(proposals.externalId), asc(candidates.externalId));
}

/** The pooled pair (proposal, candidate) of a campaign by external ids: its item id, or null when not pooled. */
export async function findCampaignItem(
  db: DbOrTx,
  campaignId: number,
  proposal: string,
  candidate: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: campaignItems.id })
    .from(campaignItems)
    .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .where(
      and(
        eq(campaignItems.campaignId, campaignId),
        eq(proposals.externalId, proposal),
        eq(candidates.externalId, candidate),
      ),
    );
  return row?.id ?? null;
}

/**
 * Stores known grades of pooled pairs, replacing earlier ones; returns what changed. Runs in the
 * caller's transaction (the import's, or the page's), which also records the audit entry; `setBy` is
 * the admin of the page's form, null for an import (its audit entry names who imported).
 */
export async function upsertTruth(tx: Tx, setBy: number | null, rows: { itemId: number; grade: number }[]) {
  const before = new Map<number, number>();
  for (let i = 0; i < rows.length; i += 5000) {
    const ids = rows.slice(i, i + 5000).map((r) => r.itemId);
    for (const r of await tx
      .select({ itemId: campaignTruth.itemId, grade: campaignTruth.grade })
      .from(campaignTruth)
      .where(inArray(campaignTruth.itemId, ids))) {
      before.set(r.itemId, r.grade);
    }
  }
  const changed = rows.filter((r) => before.get(r.itemId) !== r.grade);
  for (let i = 0; i < changed.length; i += 5000) {
    await tx
      .insert(campaignTruth)
      .values(changed.slice(i, i + 5000).map((r) => ({ ...r, setBy })))
      .onConflictDoUpdate({
        target: campaignTruth.itemId,
        set: { grade: sql`excluded.grade`, setBy, setAt: new Date() },
      });
  }
  const added = changed.filter((r) => !before.has(r.itemId)).length;
  return { added, updated: changed.length - added, unchanged: rows.length - changed.length };
}

/** The page's form: sets the known grade of one pooled pair of the campaign, with an audit entry. */
export async function attachTruth(
  db: Db,
  admin: AuditActor,
  campaignId: number,
  pair: { proposal: string; candidate: string; grade: number },
) {
  const itemId = await findCampaignItem(db, campaignId, pair.proposal, pair.candidate);
  if (itemId === null)
    throw new CampaignError(
      `${pair.proposal} / ${pair.candidate} is not a pair of this campaign (pairs exist once the campaign is launched).`,
      400,
    );
  return db.transaction(async (tx) => {
    const counts = await upsertTruth(tx, admin === "cli" ? null : admin.id, [{ itemId, grade: pair.grade }]);
    await recordAudit(tx, admin, "campaign.truth.attach", `campaign ${campaignId}`, { itemId, ...pair });
    return counts;
  });
}

/** The page's remove button: the pair is no longer a gold item (its grades stay). */
export async function removeTruth(db: Db, admin: AuditActor, campaignId: number, itemId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        proposal: proposals.externalId,
        candidate: candidates.externalId,
        grade: campaignTruth.grade,
      })
      .from(campaignTruth)
      .innerJoin(campaignItems, eq(campaignItems.id, campaignTruth.itemId))
      .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
      .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
      .where(and(eq(campaignTruth.itemId, itemId), eq(campaignItems.campaignId, campaignId)));
    if (!row) throw new CampaignError("That pair is not a gold item of this campaign.", 404);
    await tx.delete(campaignTruth).where(eq(campaignTruth.itemId, itemId));
    await recordAudit(tx, admin, "campaign.truth.remove", `campaign ${campaignId}`, { itemId, ...row });
  });
}

/** What the gold figures need from a campaign's grades and pairs (as `campaignProgress` and `loadCampaignData` give them). */
export interface GoldSource {
  grades: { itemId: number; expertId: number; grade: number | null }[];
  pairs: { itemId: number; proposal: string }[];
}

/** Runs the `goldFigures` heavy task: in the app's gold pool (app/results/gold-figures.server.ts), or in process. */
export type GoldRun = (input: HeavyInput<"goldFigures">) => Promise<HeavyOutput<"goldFigures">>;

/**
 * The gold figures of a campaign (`goldReport`: per-expert and per-proposal agreement with the known
 * grades, each aggregation's accuracy, learning curves), computed where `run` puts it, with experts
 * under their ids (`labelGoldRaters` names them for a page). Null when the campaign has no gold items or
 * no grades. Items are named `<proposal index>:<item id>` for the library, so proposal ids with a colon
 * cannot confuse its per-proposal grouping.
 */
export async function campaignGold(
  db: DbOrTx,
  campaignId: number,
  source: GoldSource,
  options: { B: number; seed: string; draws?: number },
  run: GoldRun,
) {
  const truthRows = await listTruth(db, campaignId);
  const judged = source.grades.filter((g) => g.grade !== null);
  if (truthRows.length === 0 || judged.length === 0) return null;
  const proposalNames = [...new Set(source.pairs.map((p) => p.proposal))].sort();
  const proposalIndex = new Map(proposalNames.map((p, i) => [p, i]));
  const itemName = new Map(
    source.pairs.map((p) => [p.itemId, `${proposalIndex.get(p.proposal)}:${p.itemId}`]),
  );
  const texts = await itemTexts(db, campaignId);
  const report = await run({
    ratings: judged.map((g) => ({
      item: itemName.get(g.itemId)!,
      rater: String(g.expertId),
      grade: g.grade!,
    })),
    truth: truthRows.map((t) => [itemName.get(t.itemId)!, t.grade] as [string, number]),
    options: { methods: aggregationMethods, B: options.B, seed: options.seed, draws: options.draws },
    texts: source.pairs
      .filter((p) => texts.has(p.itemId))
      .map((p) => ({
        item: itemName.get(p.itemId)!,
        proposal: String(proposalIndex.get(p.proposal)),
        text: texts.get(p.itemId)!,
      })),
  });
  return {
    ...report,
    gradesSaved: gradesSaved(report.learningCurve, report.enoughRaters.majority?.allRaters, judged),
    grades: judged.length,
    texts: report.texts && {
      ...report.texts,
      // By the proposals' own ids (the library sorted the index names as strings: "10" before "2").
      clustering: report.texts.clustering
        .map((c) => ({ ...c, proposal: proposalNames[Number(c.proposal)] }))
        .sort((a, b) => (a.proposal < b.proposal ? -1 : 1)),
    },
    proposals: Object.fromEntries(
      Object.entries(report.proposals ?? {}).map(([i, v]) => [proposalNames[Number(i)], v]),
    ),
  };
}

/**
 * Per method, where its learning curve first reaches majority vote's accuracy with every grade, and
 * the grades the campaign could have saved there (as the text-aware curves mark them).
 */
function gradesSaved(
  curves: Partial<Record<AggregationMethod, { n: number; accuracy: number }[]>>,
  target: number | undefined,
  judged: { itemId: number }[],
): Partial<Record<AggregationMethod, GradesSaved | null>> {
  if (target === undefined || !Number.isFinite(target)) return {};
  const perItem = new Map<number, number>();
  for (const g of judged) perItem.set(g.itemId, (perItem.get(g.itemId) ?? 0) + 1);
  const counts = [...perItem.values()];
  return Object.fromEntries(
    Object.entries(curves).map(([method, points]) => [method, gradesSavedAt(points ?? [], target, counts)]),
  );
}

export type CampaignGold = Exclude<Awaited<ReturnType<typeof campaignGold>>, null>;

/** The gold figures with each expert under `label` (pseudonyms on the analyst's page and in snapshots, names on the admin's). */
export function labelGoldRaters(gold: CampaignGold, label: (expertId: number) => string): CampaignGold {
  return {
    ...gold,
    raters: Object.fromEntries(Object.entries(gold.raters).map(([id, v]) => [label(Number(id)), v])),
  };
}
