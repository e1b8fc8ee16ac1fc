/**
 * rND, rKL and rRD (Yang & Stoyanovich, "Measuring Fairness in Ranked Outputs", SSDBM 2017) as the
 * authors' public code computes them (DataResponsibly/FairRank, `measures.py`, `calculateNDFairness`),
 * with one change: the normaliser Z is the exact maximum the paper defines, not FairRank's sampled
 * estimate (which varies from run to run and can fall below the maximum).
 *
 * For a ranking of N items of which P are in the protected group, at cut-offs c = 10, 20, …, N with x_c
 * protected items among the top c:
 *   U = Σ_c f(c, x_c) / log2(c + 1)       (the code's discount; the paper prints log2 c)
 *   value = U / Z(N, P),  Z = the largest U of any ranking of N items with P protected.
 * f is, with R = P / (N − P):
 *   rND: |x/c − P/N|
 *   rKL: px log2(px/qx) + (1 − px) log2((1 − px)/(1 − qx)), px = x/c, qx = P/N, each set to 0.001
 *        when it is 0 or 1 (the code's guard)
 *   rRD: |min(R, cur) − R|, cur = x/(c − x), or 0 when c = x (the code's one-sided version)
 */
export type RankMeasure = "rND" | "rKL" | "rRD";
export const rankMeasures: readonly RankMeasure[] = ["rND", "rKL", "rRD"];

/** FairRank's cut-off step. */
export const CUT_STEP = 10;

const guarded = (p: number) => (p === 0 || p === 1 ? 0.001 : p);

function divergence(measure: RankMeasure, c: number, x: number, n: number, p: number): number {
  if (measure === "rND") return Math.abs(x / c - p / n);
  if (measure === "rKL") {
    const px = guarded(x / c);
    const qx = guarded(p / n);
    return px * Math.log2(px / qx) + (1 - px) * Math.log2((1 - px) / (1 - qx));
  }
  const ratio = p / (n - p);
  const current = c === x ? 0 : x / (c - x);
  return Math.abs(Math.min(ratio, current) - ratio);
}

/** The cut-offs 10, 20, … up to n (FairRank counts every rank divisible by the step, n included). */
function cutoffs(n: number): number[] {
  const out: number[] = [];
  for (let c = CUT_STEP; c <= n; c += CUT_STEP) out.push(c);
  return out;
}

/** The unnormalised sum U of a ranking given as "is the item at rank r protected?". */
export function unnormalised(measure: RankMeasure, protectedAt: readonly boolean[]): number {
  const n = protectedAt.length;
  const cuts = cutoffs(n);
  const atCuts = new Int32Array(cuts.length);
  let x = 0;
  let next = 0;
  for (let r = 1; r <= n && next < cuts.length; r++) {
    if (protectedAt[r - 1]) x++;
    if (r === cuts[next]) atCuts[next++] = x;
  }
  return unnormalisedAtCuts(measure, n, protectedAt.filter(Boolean).length, atCuts, 0);
}

/**
 * U from the protected counts at the cut-offs 10, 20, … (`atCuts[from]` at 10, `atCuts[from + 1]` at 20, …),
 * for callers that count every group of a list in one pass.
 */
export function unnormalisedAtCuts(
  measure: RankMeasure,
  n: number,
  p: number,
  atCuts: ArrayLike<number>,
  from: number,
): number {
  let sum = 0;
  for (let c = CUT_STEP, t = from; c <= n; c += CUT_STEP, t++)
    sum += divergence(measure, c, atCuts[t], n, p) / Math.log2(c + 1);
  return sum;
}

// One memo per measure, keyed by n · 2^26 + p (a number key: lists are looked up millions of times).
const normalisers = new Map<RankMeasure, Map<number, number>>(rankMeasures.map((m) => [m, new Map()]));

/**
 * Z(N, P): the largest U over all rankings, by dynamic programming over the protected counts at the
 * cut-offs (x_c between max(0, c − (N − P)) and min(c, P), growing by 0 to 10 from one cut-off to the
 * next); U depends on a ranking only through those counts. Memoised: lists share a few (N, P).
 */
export function normaliser(measure: RankMeasure, n: number, p: number): number {
  const memo = normalisers.get(measure)!;
  const key = n * 2 ** 26 + p;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let best = new Map<number, number>([[0, 0]]);
  let previous = 0;
  for (const c of cutoffs(n)) {
    const next = new Map<number, number>();
    const step = c - previous;
    for (let x = Math.max(0, c - (n - p)); x <= Math.min(c, p); x++) {
      const term = divergence(measure, c, x, n, p) / Math.log2(c + 1);
      let top = -Infinity;
      for (const [before, value] of best) if (x >= before && x - before <= step) top = Math.max(top, value);
      if (top > -Infinity) next.set(x, top + term);
    }
    best = next;
    previous = c;
  }
  const z = Math.max(0, ...best.values());
  memo.set(key, z);
  return z;
}

/**
 * The normalised measure of one ranking, or null where it is undefined: no protected item or no
 * other item (FairRank refuses Z = 0), and rRD for a protected group that is a majority, which the
 * paper calls meaningless (`majority` says so).
 */
export function rankFairness(
  measure: RankMeasure,
  protectedAt: readonly boolean[],
  majority = false,
): number | null {
  const n = protectedAt.length;
  const p = protectedAt.filter(Boolean).length;
  if (!defined(measure, n, p, majority)) return null;
  const z = normaliser(measure, n, p);
  return z > 0 ? unnormalised(measure, protectedAt) / z : null;
}

function defined(measure: RankMeasure, n: number, p: number, majority: boolean) {
  return !(p === 0 || p === n || n < CUT_STEP || (measure === "rRD" && majority));
}

/** A (measure, N, P)'s normaliser and, for short lists, each cut-off's terms by protected count. */
interface Terms {
  z: number;
  /** `byCount[t][x]`: divergence(c, x) / log2(c + 1) at the t-th cut-off c; null for long lists. */
  byCount: Float64Array[] | null;
}

// Tables up to this many terms: a 100-item list's are 10 × 100; a long list's would be large and rare.
const MAX_TERMS = 4096;
const termTables = new Map<RankMeasure, Map<number, Terms>>(rankMeasures.map((m) => [m, new Map()]));

function termsOf(measure: RankMeasure, n: number, p: number): Terms {
  const memo = termTables.get(measure)!;
  const key = n * 2 ** 26 + p;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const cuts = cutoffs(n);
  const byCount =
    cuts.length * (p + 1) <= MAX_TERMS
      ? cuts.map((c) =>
          Float64Array.from(
            { length: Math.min(c, p) + 1 },
            (_, x) => divergence(measure, c, x, n, p) / Math.log2(c + 1),
          ),
        )
      : null;
  const terms = { z: normaliser(measure, n, p), byCount };
  memo.set(key, terms);
  return terms;
}

/**
 * rankFairness from the protected counts at the cut-offs (see unnormalisedAtCuts). Each term is
 * looked up in a table of the same quotients, added in the same order: the same number, bit for bit.
 */
export function rankFairnessAtCuts(
  measure: RankMeasure,
  n: number,
  p: number,
  atCuts: ArrayLike<number>,
  from: number,
  majority: boolean,
): number | null {
  if (!defined(measure, n, p, majority)) return null;
  const { z, byCount } = termsOf(measure, n, p);
  if (!(z > 0)) return null;
  if (byCount === null) return unnormalisedAtCuts(measure, n, p, atCuts, from) / z;
  let sum = 0;
  for (let t = 0; t < byCount.length; t++) sum += byCount[t][atCuts[from + t]];
  return sum / z;
}
