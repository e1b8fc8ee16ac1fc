import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  campaignAssignmentItems,
  campaignAssignments,
  campaignExperts,
  campaignItems,
  candidates,
  proposals,
  ratings,
  userSubjects,
} from "../schema";
import { CampaignError, eligibleExperts, lockRunningCampaign } from "./campaigns";

/**
 * Asks for more grades of the pairs that need them ("needs another grade"): each chosen pair gets r more
 * grades, from r experts whose assignment on its proposal is scoped to chosen pairs
 * (`campaign_assignment_items`), so they grade those pairs and nothing else of the pool. Who is eligible
 * follows launch and reassignment (`eligibleExperts`: active experts, not in the proposal's pool, no
 * declared conflict of interest), and never an expert who had or has the pair: an expert may take it if
 * they never had the proposal (a new scoped assignment) or hold an active scoped assignment on it
 * without this pair (the pair is added to it; a finished one opens again), never one moved off the
 * proposal or holding its whole pool. Experts of the proposal's subject first, then the least loaded
 * (open assignments in the campaign; an assignment this request already gives them on the same proposal
 * does not count, so a proposal's chosen pairs go to the same experts and the expert reads it once),
 * then the lowest id. One transaction: a pair with fewer than r eligible experts refuses the whole
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
      .select({
        id: campaignItems.id,
        proposalId: campaignItems.proposalId,
        name: sql<string>`${proposals.externalId} || ' / ' || ${candidates.externalId}`,
      })
      .from(campaignItems)
      .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
      .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
      .where(and(eq(campaignItems.campaignId, campaignId), inArray(campaignItems.id, [...itemIds, -1])))
      .orderBy(asc(campaignItems.proposalId), asc(campaignItems.id));
    const unknown = itemIds.filter((id) => !items.some((i) => i.id === id));
    if (unknown.length) throw new CampaignError(`Pair ${unknown[0]} is not a pair of this campaign.`, 400);
    const plan = await planRequest(tx, campaignId, items, raters);
    const created = await writePlan(tx, campaignId, plan);
    await recordAudit(tx, actor, "campaign.grades.request", `campaign ${campaignId}`, {
      items: items.map((i) => i.id).sort((a, b) => a - b),
      raters,
      assignments: created,
      extended: plan.extended.size,
      grades: items.length * raters,
    });
    return {
      pairs: items.length,
      proposals: new Set(items.map((i) => i.proposalId)).size,
      assignments: created,
      extended: plan.extended.size,
    };
  });
}

interface Plan {
  /** New scoped assignments, by `proposal:expert`. */
  fresh: Map<string, { proposalId: number; expertId: number; itemIds: number[] }>;
  /** Pairs added to experts' scoped assignments, by assignment id; `reopen` when it was finished. */
  extended: Map<number, { itemIds: number[]; reopen: boolean }>;
}

/** Writes a request's plan; returns how many assignments it created. */
async function writePlan(tx: Tx, campaignId: number, { fresh, extended }: Plan) {
  const news = [...fresh.values()];
  if (news.length) {
    await tx
      .insert(campaignExperts)
      .values([...new Set(news.map((c) => c.expertId))].map((userId) => ({ campaignId, userId })))
      .onConflictDoNothing();
    const created = await tx
      .insert(campaignAssignments)
      .values(
        news.map((c) => ({
          campaignId,
          proposalId: c.proposalId,
          expertId: c.expertId,
          seed: `${campaignId}:${c.proposalId}:${c.expertId}:${randomUUID()}`,
        })),
      )
      .returning({
        id: campaignAssignments.id,
        proposalId: campaignAssignments.proposalId,
        expertId: campaignAssignments.expertId,
      });
    await tx
      .insert(campaignAssignmentItems)
      .values(
        created.flatMap((a) =>
          fresh
            .get(`${a.proposalId}:${a.expertId}`)!
            .itemIds.map((itemId) => ({ assignmentId: a.id, itemId })),
        ),
      );
  }
  const scopeRows = [...extended].flatMap(([assignmentId, e]) =>
    e.itemIds.map((itemId) => ({ assignmentId, itemId })),
  );
  if (scopeRows.length) await tx.insert(campaignAssignmentItems).values(scopeRows);
  const reopened = [...extended].filter(([, e]) => e.reopen).map(([id]) => id);
  // Pairs added to a finished assignment have no grade yet: it is work to do again.
  if (reopened.length)
    await tx
      .update(campaignAssignments)
      .set({ finishedAt: null })
      .where(inArray(campaignAssignments.id, reopened));
  return news.length;
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

/** For each chosen pair (by proposal, then id), its r experts: see `requestMoreGrades` for the rules. */
async function planRequest(
  tx: Tx,
  campaignId: number,
  items: { id: number; proposalId: number; name: string }[],
  raters: number,
): Promise<Plan> {
  const proposalIds = [...new Set(items.map((i) => i.proposalId))];
  const eligible = await eligibleExperts(tx, campaignId, proposalIds, { keepBusy: true });
  const { held, load, knows } = await requestContext(tx, campaignId, proposalIds);
  const plan: Plan = { fresh: new Map(), extended: new Map() };
  const addedHere = new Set<string>();
  for (const item of items) {
    const heldBy = (expertId: number) => held.get(`${item.proposalId}:${expertId}`);
    const mayTake = (expertId: number) => {
      const a = heldBy(expertId);
      return !a || (a.active && a.scope !== null && !a.scope.has(item.id));
    };
    const loadOf = (expertId: number) =>
      (load.get(expertId) ?? 0) - Number(addedHere.has(`${item.proposalId}:${expertId}`));
    const pool = eligible
      .get(item.proposalId)!
      .filter((e) => mayTake(e.id))
      .sort(
        (a, b) =>
          Number(knows(b.id, item.proposalId)) - Number(knows(a.id, item.proposalId)) ||
          loadOf(a.id) - loadOf(b.id) ||
          a.id - b.id,
      );
    if (pool.length < raters)
      throw new CampaignError(
        `Pair ${item.name} has only ${pool.length} eligible expert${pool.length === 1 ? "" : "s"} who never had it, for ${raters} more grade${raters === 1 ? "" : "s"}; invite more experts or ask for fewer.`,
        409,
      );
    for (const e of pool.slice(0, raters)) {
      const key = `${item.proposalId}:${e.id}`;
      const a = heldBy(e.id);
      // A new assignment, or a finished one opened again, is one more open assignment for the expert.
      if (!addedHere.has(key) && (!a || a.finishedAt !== null)) {
        addedHere.add(key);
        load.set(e.id, (load.get(e.id) ?? 0) + 1);
      }
      if (a) {
        const entry = plan.extended.get(a.id) ?? { itemIds: [], reopen: a.finishedAt !== null };
        plan.extended.set(a.id, { ...entry, itemIds: [...entry.itemIds, item.id] });
      } else {
        const entry = plan.fresh.get(key) ?? { proposalId: item.proposalId, expertId: e.id, itemIds: [] };
        plan.fresh.set(key, { ...entry, itemIds: [...entry.itemIds, item.id] });
      }
    }
  }
  return plan;
}

/**
 * What choosing experts needs: every assignment ever made on the proposals (by `proposal:expert`, with
 * its scope, null for the whole pool), each expert's open assignments in the campaign, and who knows
 * each proposal's subject.
 */
async function requestContext(tx: Tx, campaignId: number, proposalIds: number[]) {
  const assignments = await tx
    .select({
      id: campaignAssignments.id,
      proposalId: campaignAssignments.proposalId,
      expertId: campaignAssignments.expertId,
      active: campaignAssignments.active,
      finishedAt: campaignAssignments.finishedAt,
    })
    .from(campaignAssignments)
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        inArray(campaignAssignments.proposalId, [...proposalIds, -1]),
      ),
    );
  const scopes = await tx
    .select({ assignmentId: campaignAssignmentItems.assignmentId, itemId: campaignAssignmentItems.itemId })
    .from(campaignAssignmentItems)
    .where(inArray(campaignAssignmentItems.assignmentId, [...assignments.map((a) => a.id), -1]));
  const held = new Map(
    assignments.map((a) => {
      const scope = scopes.filter((s) => s.assignmentId === a.id).map((s) => s.itemId);
      return [`${a.proposalId}:${a.expertId}`, { ...a, scope: scope.length ? new Set(scope) : null }];
    }),
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
        .select({ id: proposals.id, subjectId: proposals.subjectId })
        .from(proposals)
        .where(inArray(proposals.id, [...proposalIds, -1]))
    ).map((p) => [p.id, p.subjectId]),
  );
  const expertSubjects = await tx.select().from(userSubjects);
  const knows = (expertId: number, proposalId: number) =>
    expertSubjects.some((s) => s.userId === expertId && s.subjectId === subjectOf.get(proposalId));
  return { held, load, knows };
}
