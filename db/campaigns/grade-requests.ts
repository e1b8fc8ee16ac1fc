import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  campaignAssignmentItems,
  campaignAssignments,
  campaignExperts,
  campaignItems,
  proposals,
  ratings,
  userSubjects,
} from "../schema";
import { CampaignError, eligibleExperts, lockRunningCampaign } from "./campaigns";

/**
 * Asks for more grades of the pairs that need them ("needs another grade"): each chosen pair gets r more
 * grades, from r experts whose new assignment is scoped to the chosen pairs of its proposal
 * (`campaign_assignment_items`), so they grade those pairs and nothing else of the pool. Who is eligible
 * follows launch and reassignment (`eligibleExperts`: active experts, not in the proposal's pool, no
 * declared conflict of interest), and never an expert who ever had an assignment on the proposal (active
 * or not, whole pool or scoped: nobody grades a pair twice, and one assignment per expert and proposal
 * stays the rule); experts of the proposal's subject first, then the least loaded (open assignments in
 * the campaign), then the lowest id. These rules are the same for every pair of a proposal, so the chosen
 * pairs of one proposal go to the same r experts and share one assignment each: the expert reads the
 * proposal once. One transaction: a proposal with fewer than r eligible experts refuses the whole
 * request, and nothing is written.
 */
export async function requestMoreGrades(
  db: Db,
  actor: AuditActor,
  campaignId: number,
  itemIds: readonly number[],
  raters: number,
) {
  return db.transaction(async (tx) => {
    await lockRunningCampaign(tx, campaignId, "Only a running campaign can ask for more grades.");
    const items = await tx
      .select({ id: campaignItems.id, proposalId: campaignItems.proposalId })
      .from(campaignItems)
      .where(and(eq(campaignItems.campaignId, campaignId), inArray(campaignItems.id, [...itemIds, -1])))
      .orderBy(asc(campaignItems.id));
    const unknown = itemIds.filter((id) => !items.some((i) => i.id === id));
    if (unknown.length) throw new CampaignError(`Pair ${unknown[0]} is not a pair of this campaign.`, 400);
    const proposalIds = [...new Set(items.map((i) => i.proposalId))].sort((a, b) => a - b);
    const chosen = await chooseExperts(tx, campaignId, proposalIds, raters);
    await tx
      .insert(campaignExperts)
      .values([...new Set(chosen.map((c) => c.expertId))].map((userId) => ({ campaignId, userId })))
      .onConflictDoNothing();
    const created = await tx
      .insert(campaignAssignments)
      .values(
        chosen.map((c) => ({
          campaignId,
          proposalId: c.proposalId,
          expertId: c.expertId,
          seed: `${campaignId}:${c.proposalId}:${c.expertId}:${randomUUID()}`,
        })),
      )
      .returning({ id: campaignAssignments.id, proposalId: campaignAssignments.proposalId });
    await tx
      .insert(campaignAssignmentItems)
      .values(
        created.flatMap((a) =>
          items
            .filter((i) => i.proposalId === a.proposalId)
            .map((i) => ({ assignmentId: a.id, itemId: i.id })),
        ),
      );
    await recordAudit(tx, actor, "campaign.grades.request", `campaign ${campaignId}`, {
      items: items.map((i) => i.id),
      raters,
      assignments: created.length,
      grades: items.length * raters,
    });
    return { pairs: items.length, proposals: proposalIds.length, assignments: created.length };
  });
}

/**
 * Per pair, the grades asked for and not given yet: active scoped assignments covering it with no grade
 * of it (a "can't judge" counts as given). Shown beside "needs another grade" so that the admin does not
 * ask twice for a pair whose extra grades are still on their way.
 */
export async function pendingGrades(db: DbOrTx, campaignId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ itemId: campaignAssignmentItems.itemId, pending: sql<number>`count(*)::int` })
    .from(campaignAssignmentItems)
    .innerJoin(campaignAssignments, eq(campaignAssignments.id, campaignAssignmentItems.assignmentId))
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        eq(campaignAssignments.active, true),
        sql`not exists (select 1 from ${ratings} r where r.assignment_id = ${campaignAssignments.id} and r.item_id = ${campaignAssignmentItems.itemId})`,
      ),
    )
    .groupBy(campaignAssignmentItems.itemId);
  return new Map(rows.map((r) => [r.itemId, r.pending]));
}

async function chooseExperts(tx: Tx, campaignId: number, proposalIds: number[], raters: number) {
  const eligible = await eligibleExperts(tx, campaignId, proposalIds);
  const everAssigned = await tx
    .select({ proposalId: campaignAssignments.proposalId, expertId: campaignAssignments.expertId })
    .from(campaignAssignments)
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        inArray(campaignAssignments.proposalId, proposalIds),
      ),
    );
  const open = await tx
    .select({ expertId: campaignAssignments.expertId })
    .from(campaignAssignments)
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        eq(campaignAssignments.active, true),
        isNull(campaignAssignments.finishedAt),
      ),
    );
  const load = new Map<number, number>();
  for (const a of open) load.set(a.expertId, (load.get(a.expertId) ?? 0) + 1);
  const subjectOf = new Map(
    (
      await tx
        .select({ id: proposals.id, subjectId: proposals.subjectId, externalId: proposals.externalId })
        .from(proposals)
        .where(inArray(proposals.id, proposalIds))
    ).map((p) => [p.id, p]),
  );
  const expertSubjects = await tx.select().from(userSubjects);
  const knows = (expertId: number, subjectId: number | null) =>
    expertSubjects.some((s) => s.userId === expertId && s.subjectId === subjectId);
  const chosen: { proposalId: number; expertId: number }[] = [];
  for (const proposalId of proposalIds) {
    const before = new Set(everAssigned.filter((a) => a.proposalId === proposalId).map((a) => a.expertId));
    const { subjectId, externalId } = subjectOf.get(proposalId)!;
    const pool = eligible
      .get(proposalId)!
      .filter((e) => !before.has(e.id))
      .sort(
        (a, b) =>
          Number(knows(b.id, subjectId)) - Number(knows(a.id, subjectId)) ||
          (load.get(a.id) ?? 0) - (load.get(b.id) ?? 0) ||
          a.id - b.id,
      );
    if (pool.length < raters)
      throw new CampaignError(
        `Proposal ${externalId} has only ${pool.length} eligible expert${pool.length === 1 ? "" : "s"} who never had it, for ${raters} more grade${raters === 1 ? "" : "s"}; invite more experts or ask for fewer.`,
        409,
      );
    for (const e of pool.slice(0, raters)) {
      load.set(e.id, (load.get(e.id) ?? 0) + 1);
      chosen.push({ proposalId, expertId: e.id });
    }
  }
  return chosen;
}
