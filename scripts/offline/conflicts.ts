/**
 * Conflicts of interest in ranked lists (issue #13, tier 1 item 4). A conflict is a declared
 * (proposal, candidate) pair with a reason; the candidate must not review that proposal.
 */

/** proposal → candidate → reason. */
export type ConflictMap = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** One proposal's list as the system returned it (its first query variant). */
export interface ProposalList {
  proposal: string;
  items: readonly string[];
}

export interface ConflictsAtK {
  k: number;
  /** Top-K slots filled over all lists (a list shorter than K fills fewer). */
  slots: number;
  conflicted: number;
  /** COI@K = conflicted / slots; null when there is no slot. */
  share: number | null;
}

export interface ConflictedSlot {
  proposal: string;
  candidate: string;
  rank: number;
  reason: string;
}

/** COI@K for each K: the share of the top-K slots of all lists that hold a candidate conflicted with the list's proposal. */
export function conflictsAtK(
  lists: readonly ProposalList[],
  conflicts: ConflictMap,
  ks: readonly number[],
): ConflictsAtK[] {
  return ks.map((k) => {
    let slots = 0;
    let conflicted = 0;
    for (const l of lists) {
      const declared = conflicts.get(l.proposal);
      const depth = Math.min(k, l.items.length);
      slots += depth;
      if (declared) for (let i = 0; i < depth; i++) if (declared.has(l.items[i])) conflicted++;
    }
    return { k, slots, conflicted, share: slots ? conflicted / slots : null };
  });
}

/** Every conflicted slot at rank ≤ depth, by proposal then rank. */
export function conflictedSlots(
  lists: readonly ProposalList[],
  conflicts: ConflictMap,
  depth: number,
): ConflictedSlot[] {
  const out: ConflictedSlot[] = [];
  for (const l of lists) {
    const declared = conflicts.get(l.proposal);
    if (!declared) continue;
    l.items.slice(0, depth).forEach((candidate, i) => {
      if (declared.has(candidate))
        out.push({ proposal: l.proposal, candidate, rank: i + 1, reason: declared.get(candidate)! });
    });
  }
  return out;
}

/**
 * A list as the convener would see it: the candidates conflicted with the proposal removed and the
 * ranks closed up (the fourth candidate moves to rank 3 when the third is conflicted).
 */
export function withoutConflicted(
  proposal: string,
  items: readonly string[],
  conflicts: ConflictMap,
): readonly string[] {
  const declared = conflicts.get(proposal);
  return declared ? items.filter((c) => !declared.has(c)) : items;
}
