import type { Marginaliser } from "./credit";
import { positionPosteriors, PROBABILISTIC_TAU } from "./probabilistic";

/** One item of a system's ranked list for a proposal (the `lists` import's columns). */
export interface ListRow {
  system: string;
  proposal: string;
  rank: number;
  candidate: string;
}

/**
 * Probabilistic interleaving's marginaliser from the two systems' ranked lists: for a session's
 * proposal and shown list, P(position drawn by B) per position. Null (the session is left out and
 * counted) when a system has no list for the proposal or the shown list holds a candidate neither has.
 */
export function listMarginaliser(
  rows: Iterable<ListRow>,
  systems: readonly [string, string],
  tau = PROBABILISTIC_TAU,
): Marginaliser {
  const byProposal = new Map<string, [ListRow[], ListRow[]]>();
  for (const row of rows) {
    const side = systems.indexOf(row.system);
    if (side < 0) continue;
    let pair = byProposal.get(row.proposal);
    if (!pair) byProposal.set(row.proposal, (pair = [[], []]));
    pair[side].push(row);
  }
  const lists = new Map(
    [...byProposal].map(([proposal, pair]) => [
      proposal,
      pair.map((l) => l.sort((a, b) => a.rank - b.rank).map((r) => r.candidate)),
    ]),
  );
  return (proposal, items) => {
    const pair = lists.get(proposal);
    if (!pair || !pair[0].length || !pair[1].length) return null;
    try {
      return { systems, posteriors: positionPosteriors(items, pair[0], pair[1], tau) };
    } catch {
      // A shown candidate neither list holds: these lists did not make this session's list.
      return null;
    }
  };
}
