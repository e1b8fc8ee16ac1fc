import { createHmac } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../platform/client";
import { serverKey } from "../platform/server-keys";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  adjudications,
  campaignAssignments,
  campaignItems,
  campaignProposals,
  campaigns,
  campaignSystems,
  candidates,
  listItems,
  proposals,
  rankedLists,
  ratings,
  subjects,
  systems,
  users,
} from "../schema";
import { CampaignError } from "./campaigns";
import type { CampaignData, GradedPair } from "../../scripts/judgement/campaign-results";
import { aggregateGrade, gradeToRel, type Grade } from "../../scripts/judgement/labels";
import { formatQrelsLine } from "../../scripts/eval/trec";
import { toCsv } from "../../scripts/lib/csv";
import type { AggregationMethod } from "../../scripts/judgement/aggregate";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";

/**
 * An expert's id in exports and on the analysts' pages: HMAC-SHA256 under the database's pseudonym key
 * (`serverKeys`) of the campaign and the user, so it is stable within a campaign, differs between
 * campaigns (one expert cannot be linked across them), and cannot be mapped back to a user id without
 * the key (an unkeyed hash of two small integers could, by trying them all).
 */
export async function pseudonymizer(db: DbOrTx, campaignId: number): Promise<(expertId: number) => string> {
  const key = Buffer.from(await serverKey(db, "pseudonyms"), "hex");
  return (expertId) =>
    `E-${createHmac("sha256", key).update(`${campaignId}:${expertId}`).digest("hex").slice(0, 8)}`;
}

export async function loadCampaignData(
  db: DbOrTx,
  campaignId: number,
  options: { names?: boolean } = {},
): Promise<CampaignData & { ratingRows: RatingRow[] }> {
  const { pairs, ratingRows } = await loadGradedPairs(db, campaignId, options);
  const lists = await loadCampaignLists(db, campaignId);
  return { pairs, ratingRows, ...lists };
}

/**
 * Every pooled pair with its grades (by expert name with `names`, else by pseudonym) and adjudication,
 * and one export row per grade (always by pseudonym).
 */
async function loadGradedPairs(db: DbOrTx, campaignId: number, options: { names?: boolean }) {
  const items = await db
    .select({
      itemId: campaignItems.id,
      proposal: proposals.externalId,
      candidate: candidates.externalId,
      subject: subjects.name,
      adjudicated: adjudications.grade,
    })
    .from(campaignItems)
    .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .leftJoin(adjudications, eq(adjudications.itemId, campaignItems.id))
    .where(eq(campaignItems.campaignId, campaignId))
    .orderBy(asc(campaignItems.id));
  const rows = await db
    .select({
      itemId: ratings.itemId,
      expertId: campaignAssignments.expertId,
      name: users.name,
      grade: ratings.grade,
      rationale: ratings.rationale,
      position: ratings.position,
      timeSpentMs: ratings.timeSpentMs,
    })
    .from(ratings)
    .innerJoin(campaignAssignments, eq(campaignAssignments.id, ratings.assignmentId))
    .innerJoin(users, eq(users.id, campaignAssignments.expertId))
    .where(eq(campaignAssignments.campaignId, campaignId))
    .orderBy(asc(ratings.itemId), asc(campaignAssignments.expertId));
  const pseudonym = await pseudonymizer(db, campaignId);
  const byItem = new Map<number, GradedPair["grades"]>();
  const ratingRows: RatingRow[] = [];
  const itemOf = new Map(items.map((i) => [i.itemId, i]));
  for (const r of rows) {
    const expert = options.names ? r.name : pseudonym(r.expertId);
    if (!byItem.has(r.itemId)) byItem.set(r.itemId, []);
    byItem.get(r.itemId)!.push({ expert, grade: r.grade as Grade, rationale: r.rationale });
    const item = itemOf.get(r.itemId)!;
    ratingRows.push({
      proposal: item.proposal,
      candidate: item.candidate,
      expert: pseudonym(r.expertId),
      grade: r.grade === null ? "cant" : String(r.grade),
      rationale: r.rationale,
      position: r.position,
      timeSpentMs: r.timeSpentMs,
    });
  }
  const pairs: GradedPair[] = items.map((i) => ({
    itemId: i.itemId,
    proposal: i.proposal,
    candidate: i.candidate,
    subject: i.subject,
    grades: byItem.get(i.itemId) ?? [],
    adjudicated: (i.adjudicated ?? null) as Grade,
  }));
  return { pairs, ratingRows };
}

/** The campaign's proposals (by external id) and each of its systems' default lists of them. */
async function loadCampaignLists(
  db: DbOrTx,
  campaignId: number,
): Promise<Pick<CampaignData, "proposals" | "systems">> {
  const proposalRows = await db
    .select({ id: proposals.id, externalId: proposals.externalId, subject: subjects.name })
    .from(campaignProposals)
    .innerJoin(proposals, eq(proposals.id, campaignProposals.proposalId))
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(eq(campaignProposals.campaignId, campaignId))
    .orderBy(asc(proposals.externalId));
  const systemRows = await db
    .select({ id: systems.id, key: systems.key })
    .from(campaignSystems)
    .innerJoin(systems, eq(systems.id, campaignSystems.systemId))
    .where(eq(campaignSystems.campaignId, campaignId))
    .orderBy(asc(systems.key));
  const listRows = await db
    .select({
      systemId: rankedLists.systemId,
      proposalId: rankedLists.proposalId,
      candidate: candidates.externalId,
    })
    .from(listItems)
    .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
    .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
    .where(
      and(
        inArray(rankedLists.systemId, systemRows.map((s) => s.id).concat(-1)),
        inArray(rankedLists.proposalId, proposalRows.map((p) => p.id).concat(-1)),
        eq(rankedLists.variant, "default"),
      ),
    )
    .orderBy(asc(rankedLists.systemId), asc(rankedLists.proposalId), asc(listItems.rank));
  const externalOf = new Map(proposalRows.map((p) => [p.id, p.externalId]));
  return {
    proposals: proposalRows.map((p) => ({ id: p.externalId, subject: p.subject })),
    systems: systemRows.map((s) => {
      const lists = new Map<string, string[]>();
      for (const r of listRows.filter((x) => x.systemId === s.id)) {
        const p = externalOf.get(r.proposalId)!;
        if (!lists.has(p)) lists.set(p, []);
        lists.get(p)!.push(r.candidate);
      }
      return { key: s.key, lists };
    }),
  };
}

export interface RatingRow {
  proposal: string;
  candidate: string;
  expert: string;
  grade: string;
  rationale: string;
  position: number;
  timeSpentMs: number;
}

/**
 * An admin's final grade for one pair, with a note; raw grades stay as they were. Only a signed-in
 * admin adjudicates (the row names them), so the actor is a user, never the CLI.
 */
export async function adjudicate(
  db: Db,
  admin: Exclude<AuditActor, "cli">,
  campaignId: number,
  itemId: number,
  grade: 1 | 2 | 3 | 4,
  note: string,
) {
  await db.transaction(async (tx) => {
    const [item] = await tx
      .select({
        id: campaignItems.id,
        proposal: proposals.externalId,
        candidate: candidates.externalId,
        previous: adjudications.grade,
      })
      .from(campaignItems)
      .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
      .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
      .leftJoin(adjudications, eq(adjudications.itemId, campaignItems.id))
      .where(and(eq(campaignItems.id, itemId), eq(campaignItems.campaignId, campaignId)));
    if (!item) throw new CampaignError("That pair is not part of this campaign.", 404);
    await tx
      .insert(adjudications)
      .values({ itemId, grade, note, adjudicatedBy: admin.id })
      .onConflictDoUpdate({
        target: adjudications.itemId,
        set: { grade, note, adjudicatedBy: admin.id, adjudicatedAt: new Date() },
      });
    await recordAudit(tx, admin, "campaign.adjudicate", `campaign ${campaignId}`, {
      itemId,
      proposal: item.proposal,
      candidate: item.candidate,
      grade,
      previousGrade: item.previous ?? null,
      note,
    });
  });
}

export type ExportFormat = "qrels" | "csv" | "json";

/**
 * The campaign's labels for other tools: aggregated qrels (rel = grade − 1), per-rater CSV, or both as
 * JSON. `aggregate` picks how a pair's grades become its label (scripts/judgement/aggregate.ts): the median
 * (the default, as everywhere), majority vote (a tie is undecided and left out), the mean rounded half
 * up, or Dawid–Skene over all the campaign's grades; an adjudicated pair keeps its final grade under
 * every method. Dawid–Skene runs where `run` puts it (the app's worker pool from the export route).
 */
export async function exportCampaign(
  db: DbOrTx,
  campaignId: number,
  format: ExportFormat,
  { aggregate = "median", run = runInProcess }: { aggregate?: AggregationMethod; run?: HeavyRunner } = {},
): Promise<{ body: string; contentType: string; fileName: string }> {
  const [campaign] = await db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  if (!campaign) throw new CampaignError(`There is no campaign ${campaignId}.`, 404);
  const data = await loadCampaignData(db, campaignId);
  const judged = data.pairs.flatMap((p) =>
    p.grades
      .filter((g) => g.grade !== null)
      .map((g) => ({ item: String(p.itemId), rater: g.expert, grade: g.grade! })),
  );
  const aggregated =
    aggregate === "median"
      ? null
      : new Map(await run("aggregateLabels", { ratings: judged, method: aggregate }));
  const labelOf = (p: GradedPair): Grade =>
    aggregated === null || p.adjudicated !== null
      ? aggregateGrade(
          p.grades.map((g) => g.grade),
          p.adjudicated,
        )
      : ((aggregated.get(String(p.itemId)) ?? null) as Grade);
  const labels = data.pairs
    .map((p) => ({
      proposal: p.proposal,
      candidate: p.candidate,
      grade: labelOf(p),
      adjudicated: p.adjudicated !== null,
      raters: p.grades.length,
    }))
    .filter((l) => l.grade !== null);
  const base = `campaign-${campaignId}`;
  if (format === "qrels") {
    return {
      body:
        labels.map((l) => formatQrelsLine(l.proposal, l.candidate, gradeToRel(l.grade!))).join("\n") + "\n",
      contentType: "text/plain; charset=utf-8",
      fileName: `${base}${aggregate === "median" ? "" : `-${aggregate}`}.qrels`,
    };
  }
  if (format === "csv") {
    const body = toCsv(
      ["proposal", "candidate", "expert", "grade", "rationale", "position", "time_ms"],
      data.ratingRows.map((r) => [
        r.proposal,
        r.candidate,
        r.expert,
        r.grade,
        r.rationale,
        r.position,
        r.timeSpentMs,
      ]),
    );
    return { body: body + "\r\n", contentType: "text/csv; charset=utf-8", fileName: `${base}-ratings.csv` };
  }
  return {
    body: JSON.stringify(
      {
        campaign: { id: campaign.id, name: campaign.name },
        aggregate,
        labels: labels.map((l) => ({ ...l, rel: gradeToRel(l.grade!) })),
        ratings: data.ratingRows,
      },
      null,
      2,
    ),
    contentType: "application/json; charset=utf-8",
    fileName: `${base}.json`,
  };
}

/**
 * Proposal titles, candidate names and any adjudication (grade and note) of some pairs, for the admin's
 * disagreement queue only: the analyst dashboard stays candidate-blind and never calls this.
 */
export async function pairDetails(db: DbOrTx, campaignId: number, itemIds: number[]) {
  const rows = await db
    .select({
      itemId: campaignItems.id,
      title: proposals.title,
      candidateName: candidates.name,
      grade: adjudications.grade,
      note: adjudications.note,
    })
    .from(campaignItems)
    .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .leftJoin(adjudications, eq(adjudications.itemId, campaignItems.id))
    .where(and(eq(campaignItems.campaignId, campaignId), inArray(campaignItems.id, itemIds.concat(-1))));
  return new Map(rows.map((r) => [r.itemId, r]));
}
