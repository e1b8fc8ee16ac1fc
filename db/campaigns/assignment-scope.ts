import { eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Tx } from "../platform/client";
import { campaignAssignmentItems, campaignAssignments, campaignItems } from "../schema";

/**
 * Which pairs an assignment covers. An assignment made by "ask for more grades" is scoped to the chosen
 * pairs of its proposal (rows in `campaign_assignment_items`); any other covers the proposal's whole pool.
 * Every read of an assignment's cards (task page, grade check, progress counts) goes through these two,
 * so a scoped expert is never shown, asked for or counted on a pair outside the scope.
 */

/**
 * True for the rows of `campaign_items` that the assignment `assignmentId` may show and grade. The item
 * column is written out qualified: drizzle leaves columns unqualified in a select without joins, and
 * inside the subquery an unqualified name would not say which table it means.
 */
export function assignmentCovers(assignmentId: number): SQL {
  return sql`(not exists (select 1 from ${campaignAssignmentItems} s where s.assignment_id = ${assignmentId})
    or exists (select 1 from ${campaignAssignmentItems} s
      where s.assignment_id = ${assignmentId} and s.item_id = "campaign_items"."id"))`;
}

/** Whether an assignment is scoped to chosen pairs (made by "ask for more grades"), for the monitor. */
export function assignmentScoped(assignmentId: AnyPgColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${campaignAssignmentItems} s where s.assignment_id = ${assignmentId})`;
}

/**
 * The number of pairs an assignment covers, for "n of m graded". Scope rows are only ever pairs of the
 * assignment's own proposal (written by `requestMoreGrades`), so their count is the scoped total.
 */
export function assignmentPairCount(a: {
  id: AnyPgColumn;
  campaignId: AnyPgColumn;
  proposalId: AnyPgColumn;
}): SQL<number> {
  return sql<number>`coalesce(
    nullif((select count(*)::int from ${campaignAssignmentItems} s where s.assignment_id = ${a.id}), 0),
    (select count(*)::int from ${campaignItems} ci where ci.campaign_id = ${a.campaignId} and ci.proposal_id = ${a.proposalId})
  )`;
}

/**
 * Reassignment: the assignment `to` takes over the work of `from`, so it must cover at least the pairs
 * `from` covered. A new assignment (`fresh`) gets `from`'s scope as is; an expert's earlier assignment
 * brought back is widened (to the whole pool if `from` had no scope) and, when that adds pairs, is no
 * longer finished: the added pairs have no grade yet.
 */
export async function carryScope(tx: Tx, fromId: number, toId: number, fresh: boolean) {
  const scope = async (id: number) =>
    (
      await tx
        .select({ itemId: campaignAssignmentItems.itemId })
        .from(campaignAssignmentItems)
        .where(eq(campaignAssignmentItems.assignmentId, id))
    ).map((r) => r.itemId);
  const [from, to] = [await scope(fromId), fresh ? [] : await scope(toId)];
  let widened: boolean;
  if (!fresh && to.length === 0) widened = false;
  else if (from.length === 0) {
    await tx.delete(campaignAssignmentItems).where(eq(campaignAssignmentItems.assignmentId, toId));
    widened = !fresh;
  } else {
    const added = await tx
      .insert(campaignAssignmentItems)
      .values(from.map((itemId) => ({ assignmentId: toId, itemId })))
      .onConflictDoNothing()
      .returning({ itemId: campaignAssignmentItems.itemId });
    widened = !fresh && added.length > 0;
  }
  if (widened)
    await tx.update(campaignAssignments).set({ finishedAt: null }).where(eq(campaignAssignments.id, toId));
}
