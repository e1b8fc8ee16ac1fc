import { DEFAULT_SEED } from "../lib/defaults";
import { createRng } from "../lib/random";
import { normalTwoSidedP, studentTTwoSidedP } from "./distributions";
import { mean, variance } from "./quantile";

export interface TestResult {
  test: "t" | "wilcoxon" | "permutation";
  n: number;
  statistic: number;
  pValue: number;
  method: string;
}

function differences(a: ArrayLike<number>, b: ArrayLike<number>) {
  if (a.length !== b.length)
    throw new Error(`paired samples need equal lengths (${a.length} and ${b.length})`);
  return Float64Array.from({ length: a.length }, (_, i) => b[i] - a[i]);
}

/** Paired t-test on b − a: t = mean(d) / (sd(d)/√n), df = n − 1, two-sided (scipy.stats.ttest_rel). */
export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): TestResult {
  const d = differences(a, b);
  const n = d.length;
  if (n < 2) throw new Error("a paired t-test needs at least 2 pairs");
  const sd = Math.sqrt(variance(d));
  const m = mean(d);
  const t = sd === 0 ? (m === 0 ? NaN : Math.sign(m) * Infinity) : m / (sd / Math.sqrt(n));
  return {
    test: "t",
    n,
    statistic: t,
    pValue: Number.isNaN(t) ? 1 : studentTTwoSidedP(t, n - 1),
    method: `Student's t, df = ${n - 1}`,
  };
}

/** Average ranks (1-based) of values, ties sharing their mean rank; also Σ(t³ − t) over tie groups. */
export function averageRanks(values: ArrayLike<number>): {
  ranks: Float64Array;
  tieTerm: number;
  hasTies: boolean;
} {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => values[x] - values[y]);
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]] === values[order[i]]) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[order[k]] = rank;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { ranks, tieTerm, hasTies: tieTerm > 0 };
}

/**
 * Wilcoxon signed-rank test on differences, as scipy 1.17's default `wilcoxon(d)` (`method="auto"`,
 * `zero_method="wilcox"`, `correction=False`; scipy/stats/_wilcoxon.py): zero differences are dropped
 * and the rest ranked by |d| with average ranks. Which null distribution, decided on the input with its
 * zeros: more than 50 differences → normal approximation; no ties and no zeros → the exact
 * distribution of W+; ties or zeros with at most 13 differences → scipy's permutation test, which is
 * exhaustive there (2^13 < its 9,999 resamples), i.e. the exact sign-flip distribution of W+ over the
 * actual (tied) ranks; otherwise the normal approximation with the tie correction Σ(t³ − t)/48 and no
 * continuity correction. Statistic: min(W+, W−); two-sided p = 2 min(P(W+ ≤ w), P(W+ ≥ w)), at most 1.
 */
export function wilcoxonSignedRank(diffs: ArrayLike<number>): TestResult {
  const all = Array.from(diffs);
  const d = all.filter((x) => x !== 0);
  const hadZeros = d.length < all.length;
  const n = d.length;
  if (n === 0) return { test: "wilcoxon", n: 0, statistic: 0, pValue: 1, method: "no non-zero differences" };
  const { ranks, tieTerm, hasTies } = averageRanks(d.map(Math.abs));
  let wPlus = 0;
  for (let i = 0; i < n; i++) if (d[i] > 0) wPlus += ranks[i];
  const total = (n * (n + 1)) / 2;
  const statistic = Math.min(wPlus, total - wPlus);
  if (all.length <= 50 && (!(hadZeros || hasTies) || all.length <= 13)) {
    // Average ranks are multiples of 1/2: doubled they are integers, and the distribution is a subset-sum count.
    const doubled = Array.from(ranks, (r) => Math.round(2 * r));
    const pValue = Math.min(1, 2 * signedRankTail(doubled, Math.round(2 * statistic)));
    return {
      test: "wilcoxon",
      n,
      statistic,
      pValue,
      method: hadZeros || hasTies ? "exact permutation (ties or zeros)" : "exact",
    };
  }
  const meanW = total / 2;
  const varW = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  const z = (statistic - meanW) / Math.sqrt(varW);
  return {
    test: "wilcoxon",
    n,
    statistic,
    pValue: normalTwoSidedP(z),
    method: "normal approximation, tie-corrected, no continuity correction",
  };
}

/**
 * P(W+ ≤ w) under H0, where W+ sums the (integer) ranks that carry a + sign and each of the 2^n sign
 * patterns is equally likely: a subset-sum count by dynamic programme, summed on the lower tail only
 * (w ≤ half the total, as min(W+, W−) always is), so small p-values keep every digit.
 */
function signedRankTail(ranks: readonly number[], w: number): number {
  const max = ranks.reduce((s, r) => s + r, 0);
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  let reach = 0;
  for (const r of ranks) {
    reach += r;
    for (let s = reach; s >= r; s--) counts[s] += counts[s - r];
  }
  let below = 0;
  for (let s = 0; s <= Math.min(w, max); s++) below += counts[s];
  return below / 2 ** ranks.length;
}

/**
 * Sign-flip permutation test of the mean difference: exact over all 2^n sign patterns when n ≤ 20,
 * else Monte Carlo with p = (b + 1)/(B + 1). Two-sided: |Σ s_i d_i| ≥ |Σ d_i|.
 */
export function signFlipPermutation(
  diffs: ArrayLike<number>,
  options: { B?: number; seed?: string | number } = {},
): TestResult {
  const d = Float64Array.from(diffs);
  const n = d.length;
  if (n === 0) return { test: "permutation", n, statistic: 0, pValue: 1, method: "no pairs" };
  let observed = 0;
  for (const x of d) observed += x;
  const target = Math.abs(observed) * (1 - 1e-12) - 1e-15; // equal sums must count despite rounding
  const statistic = observed / n;
  if (n <= 20) {
    let extreme = 0;
    const patterns = 2 ** n;
    for (let mask = 0; mask < patterns; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -d[i] : d[i];
      if (Math.abs(s) >= target) extreme++;
    }
    return { test: "permutation", n, statistic, pValue: extreme / patterns, method: "exact sign-flip" };
  }
  const B = options.B ?? 10_000;
  const rng = createRng(options.seed ?? DEFAULT_SEED);
  let extreme = 0;
  for (let r = 0; r < B; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += rng.nextUint32() & 1 ? -d[i] : d[i];
    if (Math.abs(s) >= target) extreme++;
  }
  return {
    test: "permutation",
    n,
    statistic,
    pValue: (extreme + 1) / (B + 1),
    method: `Monte Carlo sign-flip, B = ${B}`,
  };
}

/** Holm's step-down adjustment of p-values (family-wise error), returned in the input order. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

export type PairedTest = "t" | "wilcoxon" | "permutation";

export function pairedTest(
  test: PairedTest,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: { B?: number; seed?: string | number } = {},
): TestResult {
  if (test === "t") return pairedTTest(a, b);
  const d = differences(a, b);
  return test === "wilcoxon" ? wilcoxonSignedRank(d) : signFlipPermutation(d, options);
}
