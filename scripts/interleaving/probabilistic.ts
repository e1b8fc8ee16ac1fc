import { createRng } from "../lib/random";
import type { InterleavedList } from "./team-draft";

/** The softmax rankers' temperature of Hofmann, Whiteson and de Rijke (CIKM 2011): P(rank r) ∝ 1/r^τ, τ = 3. */
export const PROBABILISTIC_TAU = 3;

export interface ProbabilisticOptions {
  depth: number;
  seed: string | number;
  sessionId: string;
  /** The system keys of list A and list B, written into `teams` (default "A" and "B"). */
  systems?: readonly [string, string];
  tau?: number;
}

/**
 * Each system's ranking of every candidate either list holds: its own list, then the other list's
 * candidates it lacks in the other's order, so both softmax rankers are defined on one set.
 */
function completeRanks(
  listA: readonly string[],
  listB: readonly string[],
): [Map<string, number>, Map<string, number>] {
  const ranks = (own: readonly string[], other: readonly string[]) => {
    const r = new Map<string, number>();
    for (const c of [...own, ...other]) if (!r.has(c)) r.set(c, r.size + 1);
    return r;
  };
  return [ranks(listA, listB), ranks(listB, listA)];
}

/** P(c | ranker, candidates not yet shown) of a softmax ranker: (1/rank(c)^τ) / Σ over the remaining. */
function softmaxProbability(rank: Map<string, number>, c: string, remaining: Iterable<string>, tau: number) {
  let sum = 0;
  for (const d of remaining) sum += rank.get(d)! ** -tau;
  return rank.get(c)! ** -tau / sum;
}

/**
 * Probabilistic interleaving (Hofmann, Whiteson, de Rijke, CIKM 2011): for each position a fair coin
 * from the PRNG seeded with (experiment seed, session id) picks list A's or list B's softmax ranker,
 * which draws a candidate not yet shown with probability ∝ 1/rank^τ (its rank in its own list; the
 * candidates only the other list holds come after, in that list's order). `teams` records which
 * ranker drew each position: the credit marginalises over it (`positionPosteriors`).
 */
export function probabilisticInterleave(
  listA: readonly string[],
  listB: readonly string[],
  options: ProbabilisticOptions,
): InterleavedList {
  const { depth, seed, sessionId } = options;
  const tau = options.tau ?? PROBABILISTIC_TAU;
  if (!Number.isInteger(depth) || depth < 1)
    throw new Error(`the display depth must be a whole number of at least 1, not ${depth}`);
  const [systemA, systemB] = options.systems ?? ["A", "B"];
  if (systemA === systemB) throw new Error(`the two systems need different keys, not ${systemA} twice`);
  const [rankA, rankB] = completeRanks(listA, listB);
  const rng = createRng(`${String(seed).length}:${seed}:${sessionId}`);
  const remaining = new Set(rankA.keys());
  const items: string[] = [];
  const teams: string[] = [];
  while (items.length < depth && remaining.size > 0) {
    const useA = rng.next() < 0.5;
    const rank = useA ? rankA : rankB;
    let u = rng.next() * [...remaining].reduce((s, d) => s + rank.get(d)! ** -tau, 0);
    let pick = "";
    for (const d of remaining) {
      pick = d;
      u -= rank.get(d)! ** -tau;
      if (u < 0) break;
    }
    remaining.delete(pick);
    items.push(pick);
    teams.push(useA ? systemA : systemB);
  }
  return { items, teams };
}

/**
 * P(position r was drawn by B's ranker | the list shown), for each position. With a fair coin per
 * position and each ranker's probability depending only on what was shown before, the assignments of
 * the positions are independent given the list: P(a_r = B | L) = P_B(l_r) / (P_A(l_r) + P_B(l_r)),
 * both over the candidates still unshown at r.
 */
export function positionPosteriors(
  items: readonly string[],
  listA: readonly string[],
  listB: readonly string[],
  tau = PROBABILISTIC_TAU,
): number[] {
  const [rankA, rankB] = completeRanks(listA, listB);
  const unknown = items.find((c) => !rankA.has(c));
  if (unknown !== undefined) throw new Error(`candidate ${unknown} is in neither system's list`);
  const remaining = new Set(rankA.keys());
  return items.map((c) => {
    const a = softmaxProbability(rankA, c, remaining, tau);
    const b = softmaxProbability(rankB, c, remaining, tau);
    remaining.delete(c);
    return b / (a + b);
  });
}

/**
 * Marginalised outcome of one session (Hofmann et al. 2011, §4): the expectation over the team
 * assignments given the shown list and the clicks. An assignment gives each clicked position to A or
 * B; B wins when more clicked positions are B's. Returns P(A wins) and P(B wins) (the rest is a tie),
 * from the distribution of (B's − A's clicked positions), a sum of independent ±1 terms.
 */
export function marginalisedOutcome(
  posteriors: readonly number[],
  clickedPositions: Iterable<number>,
): { a: number; b: number } {
  // dist[k + n] = P(B's − A's = k) over the positions so far.
  const clicked = [...new Set(clickedPositions)];
  const n = clicked.length;
  let dist = new Float64Array(2 * n + 1);
  dist[n] = 1;
  for (const r of clicked) {
    const pB = posteriors[r];
    const next = new Float64Array(2 * n + 1);
    for (let k = 0; k < dist.length; k++) {
      if (dist[k] === 0) continue;
      if (k + 1 < next.length) next[k + 1] += dist[k] * pB;
      if (k > 0) next[k - 1] += dist[k] * (1 - pB);
    }
    dist = next;
  }
  let a = 0,
    b = 0;
  for (let k = 0; k < dist.length; k++) {
    if (k < n) a += dist[k];
    else if (k > n) b += dist[k];
  }
  return { a, b };
}
