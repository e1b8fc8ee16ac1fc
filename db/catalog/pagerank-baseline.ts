import { coCommitteeGraph, pagerank, pagerankWithout } from "../../scripts/offline/pagerank";
import { earlierHistory } from "../../scripts/offline/history";

/**
 * The `pagerank` baseline's lists. Candidates are linked when they sat on a committee together (weight =
 * committees shared); each proposal's list ranks candidates by PageRank (damping 0.85, dangling
 * candidates spread uniformly, as networkx does) of the graph without that proposal's own committee
 * (leave-one-out, so its committee cannot lift itself), highest first, ties by candidate id. When the
 * proposal has a subject, only candidates who sat on a committee of another proposal of that subject
 * are listed (the list may then be shorter than `depth`, or empty). A dated proposal, when any proposal
 * is dated, learns only from the committees of proposals dated before it (an undated committee cannot be
 * placed before it, so it is left out): what its convener could have known. Returns a function of the
 * proposal id.
 */
export function pagerankLists(
  candidates: readonly { id: number }[],
  proposals: readonly { id: number; subjectId: number | null; date?: string | null }[],
  goldOf: ReadonlyMap<number, ReadonlySet<number>>,
  depth: number,
): (proposalId: number) => { id: number; score: number }[] {
  const index = new Map(candidates.map((c, i) => [c.id, i]));
  const committeeOf = (proposalId: number) =>
    [...(goldOf.get(proposalId) ?? [])].map((c) => index.get(c)!).filter((i) => i !== undefined);
  const graph = coCommitteeGraph(
    proposals.map((p) => committeeOf(p.id)),
    candidates.length,
  );
  // Leaving one committee out changes the graph a little: starting from the full graph's ranks
  // converges in a few iterations.
  const full = pagerank(graph);
  // Per subject, how many of its committees each candidate sat on (less the proposal's own, below).
  const seats = new Map<number, Map<number, number>>();
  for (const p of proposals) {
    if (p.subjectId === null) continue;
    if (!seats.has(p.subjectId)) seats.set(p.subjectId, new Map());
    const bySubject = seats.get(p.subjectId)!;
    for (const c of goldOf.get(p.id) ?? []) bySubject.set(c, (bySubject.get(c) ?? 0) + 1);
  }
  const byId = new Map(proposals.map((p) => [p.id, p]));
  const before = earlierHistory(proposals, (earlier) => {
    const ranks = pagerank(
      coCommitteeGraph(
        earlier.map((p) => committeeOf(p.id)),
        candidates.length,
      ),
    );
    const bySubject = new Map<number, Map<number, number>>();
    const seatsIn = (subjectId: number) => {
      if (!bySubject.has(subjectId)) bySubject.set(subjectId, subjectSeats(earlier, goldOf, subjectId));
      return bySubject.get(subjectId)!;
    };
    return { ranks, seats: seatsIn };
  });
  return (proposalId) => {
    const { subjectId = null, date = null } = byId.get(proposalId) ?? {};
    const history = before(date);
    // Leave-one-out over every committee, or (dated) only the earlier ones, where its own is not.
    const own = history ? new Set<number>() : (goldOf.get(proposalId) ?? new Set<number>());
    const ranks = history?.ranks ?? pagerankWithout(graph, committeeOf(proposalId), { start: full });
    const inSubject =
      subjectId === null ? null : history ? history.seats(subjectId) : (seats.get(subjectId) ?? new Map());
    return candidates
      .filter((c) => inSubject === null || (inSubject.get(c.id) ?? 0) - (own.has(c.id) ? 1 : 0) > 0)
      .map((c) => ({ id: c.id, score: ranks[index.get(c.id)!] }))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, depth);
  };
}

/** How many committees of the subject, among `proposals`, each candidate sat on. */
function subjectSeats(
  proposals: readonly { id: number; subjectId: number | null }[],
  goldOf: ReadonlyMap<number, ReadonlySet<number>>,
  subjectId: number,
): Map<number, number> {
  const into = new Map<number, number>();
  for (const p of proposals)
    if (p.subjectId === subjectId)
      for (const c of goldOf.get(p.id) ?? []) into.set(c, (into.get(c) ?? 0) + 1);
  return into;
}
