import { eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { candidates, conflicts, convenerAssignments, proposals, users } from "../schema";

/** Every declared conflict by external ids, proposal → candidate → reason (for the offline report). */
export async function loadConflicts(db: DbOrTx): Promise<Map<string, Map<string, string>>> {
  const rows = await db
    .select({ proposal: proposals.externalId, candidate: candidates.externalId, reason: conflicts.reason })
    .from(conflicts)
    .innerJoin(proposals, eq(proposals.id, conflicts.proposalId))
    .innerJoin(candidates, eq(candidates.id, conflicts.candidateId));
  const map = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (!map.has(r.proposal)) map.set(r.proposal, new Map());
    map.get(r.proposal)!.set(r.candidate, r.reason);
  }
  return map;
}

/**
 * Per proposal id, the lower-cased addresses of the experts conflicted with it. Experts are users, not
 * candidates; a user is the candidate whose email, or whose external id, is the user's email (the link
 * launch already uses to keep experts off proposals that list them). So a declared conflict of a
 * candidate with a proposal bars the user with that candidate's email or external id. The proposal's own
 * conveners are barred too, since a person may be a convener and an expert at once.
 */
export async function conflictedExpertEmails(
  db: DbOrTx,
  proposalIds: number[],
): Promise<Map<number, Set<string>>> {
  const rows = await db
    .select({
      proposalId: conflicts.proposalId,
      email: sql<string | null>`lower(${candidates.email})`,
      externalId: sql<string>`lower(${candidates.externalId})`,
    })
    .from(conflicts)
    .innerJoin(candidates, eq(candidates.id, conflicts.candidateId))
    .where(inArray(conflicts.proposalId, proposalIds.concat(-1)));
  // A person who convenes a proposal is conflicted with it too: they may also hold the expert role.
  const conveners = await db
    .select({ proposalId: convenerAssignments.proposalId, email: sql<string>`lower(${users.email})` })
    .from(convenerAssignments)
    .innerJoin(users, eq(users.id, convenerAssignments.userId))
    .where(inArray(convenerAssignments.proposalId, proposalIds.concat(-1)));
  const map = new Map<number, Set<string>>();
  const add = (proposalId: number, address: string) => {
    if (!map.has(proposalId)) map.set(proposalId, new Set());
    map.get(proposalId)!.add(address);
  };
  for (const r of rows) {
    if (r.email) add(r.proposalId, r.email);
    add(r.proposalId, r.externalId);
  }
  for (const c of conveners) add(c.proposalId, c.email);
  return map;
}
