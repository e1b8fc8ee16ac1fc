import { bootstrapGroups, bootstrapMeans, bootstrapStatistics, type Interval } from "../stats/bootstrap";
import type { ClickLog } from "./log";
import type { ClickModel } from "./model";

/**
 * 95% intervals for the click-model figures: a percentile bootstrap over clusters of sessions (the
 * page's conveners, the CLI's queries), seeded. Sessions of one convener (or of one query) share what
 * makes their clicks alike, so resampling single sessions would understate the spread (DESIGN.md:
 * resample randomization units, never events). The fitted model and PBM's examination curve are held
 * fixed: the intervals say how much the figures would move on other held-out sessions from the same
 * conveners, not how much a refit would move them (twelve refits per resample would cost B fits).
 */

export interface ClickIntervalOptions {
  B: number;
  seed: string;
  level?: number;
}

/**
 * One model's per-session terms on the test log, the pieces `logLikelihood` and `perplexity`
 * (measures.ts) sum: each session's mean ln p of its observed clicks, and per rank log2 q of the
 * unconditional click probability of what happened there (0 past the session's length or where q ≤ 0,
 * as `perplexity` skips it).
 */
export interface FitTerms {
  sessions: number;
  maxRank: number;
  /** Ranks up to the deepest session: the ranks the overall perplexity averages over. */
  deepest: number;
  logLikelihood: Float64Array;
  log2q: Float64Array;
}

export function fitTerms(model: ClickModel, test: ClickLog): FitTerms {
  const R = test.maxRank;
  const p = new Float64Array(R);
  const logLikelihood = new Float64Array(test.size);
  const log2q = new Float64Array(test.size * R);
  let deepest = 0;
  for (let s = 0; s < test.size; s++) {
    const n = test.length[s];
    deepest = Math.max(deepest, n);
    model.conditional(test, s, p);
    let sum = 0;
    for (let r = 0; r < n; r++) sum += Math.log(p[r]);
    logLikelihood[s] = sum / n;
    model.full(test, s, p);
    for (let r = 0; r < n; r++) {
      const q = test.click[s * R + r] ? p[r] : 1 - p[r];
      if (q > 0) log2q[s * R + r] = Math.log(q) / Math.LN2;
    }
  }
  return { sessions: test.size, maxRank: R, deepest, logLikelihood, log2q };
}

/** The fit measures of a resample from its clusters' sums: log-likelihood, perplexity, then per rank. */
export interface FitIntervals {
  logLikelihood: Interval | null;
  perplexity: Interval | null;
  perplexityByRank: (Interval | null)[];
}

/**
 * Clusters numbered 0..k−1 from a key per session, in first-seen order (so the same sessions in the
 * same order give the same numbering, and the same resamples).
 */
export function clusterIndex(keys: readonly string[]): { of: Int32Array; count: number } {
  const index = new Map<string, number>();
  const of = Int32Array.from(keys, (k) => {
    let c = index.get(k);
    if (c === undefined) index.set(k, (c = index.size));
    return c;
  });
  return { of, count: index.size };
}

/**
 * Log-likelihood, perplexity and perplexity at each rank, with percentile intervals from resampling
 * the clusters: a resample of clusters is the union of their sessions (a cluster drawn twice counts
 * twice), and each measure is recomputed on it as measures.ts computes it on the whole log. Each
 * cluster's sums are taken once, so a resample costs clusters × (ranks + 2), whatever the sessions.
 */
export function fitIntervals(
  terms: FitTerms,
  clusters: { of: Int32Array; count: number },
  options: ClickIntervalOptions,
): FitIntervals {
  const { deepest, maxRank: R } = terms;
  const width = deepest + 2;
  const sums = new Float64Array(clusters.count * width);
  for (let s = 0; s < terms.sessions; s++) {
    const at = clusters.of[s] * width;
    sums[at]++;
    sums[at + 1] += terms.logLikelihood[s];
    for (let r = 0; r < deepest; r++) sums[at + 2 + r] += terms.log2q[s * R + r];
  }
  const total = new Float64Array(width);
  const intervals = bootstrapStatistics(
    clusters.count,
    (counts) => {
      total.fill(0);
      for (let c = 0; c < clusters.count; c++) {
        const k = counts[c];
        if (!k) continue;
        for (let j = 0; j < width; j++) total[j] += k * sums[c * width + j];
      }
      const n = total[0];
      const byRank = Array.from(total.subarray(2), (x) => 2 ** (-x / n));
      return [total[1] / n, byRank.reduce((a, b) => a + b, 0) / deepest, ...byRank];
    },
    deepest + 2,
    { ...options, seed: `${options.seed}:clicks:fit` },
  );
  return { logLikelihood: intervals[0], perplexity: intervals[1], perplexityByRank: intervals.slice(2) };
}

/** One arm's results shown, clicks and inverse-propensity-weighted clicks, summed per cluster. */
export interface ArmCounts {
  shown: Float64Array;
  clicks: Float64Array;
  weighted: Float64Array;
}

/**
 * Raw CTR (Σ clicks / Σ shown) and corrected CTR (Σ weighted clicks / Σ shown) of one arm, with
 * percentile intervals from resampling its clusters (conveners): both ratios from the same resamples.
 */
export function armCtrIntervals(
  counts: ArmCounts,
  options: ClickIntervalOptions & { arm: string },
): { ctr: Interval | null; correctedCtr: Interval | null } {
  const [ctr, correctedCtr] = bootstrapStatistics(
    counts.shown.length,
    (drawn) => {
      const [n, c, w] = drawnSums(counts, drawn);
      return n ? [c / n, w / n] : [null, null];
    },
    2,
    { B: options.B, seed: `${options.seed}:clicks:ctr:${options.arm}`, level: options.level },
  );
  return { ctr, correctedCtr };
}

/** Σ k·shown, Σ k·clicks and Σ k·weighted of one arm's resample (`drawn[u]`: times unit u was drawn). */
function drawnSums({ shown, clicks, weighted }: ArmCounts, drawn: Uint32Array): [number, number, number] {
  let n = 0;
  let c = 0;
  let w = 0;
  for (let u = 0; u < shown.length; u++) {
    const k = drawn[u];
    n += k * shown[u];
    c += k * clicks[u];
    w += k * weighted[u];
  }
  return [n, c, w];
}

/**
 * An arm's raw and corrected CTR minus the control arm's, with percentile intervals from resampling
 * each arm's conveners within that arm (the arms' conveners are disjoint: assignment is sticky), as
 * the A/B page's differences are drawn.
 */
export function ctrDifferenceIntervals(
  control: ArmCounts,
  arm: ArmCounts,
  options: ClickIntervalOptions & { arm: string },
): { ctr: Interval | null; correctedCtr: Interval | null } {
  const [ctr, correctedCtr] = bootstrapGroups(
    [control.shown.length, arm.shown.length],
    ([inControl, inArm]) => {
      const [n0, c0, w0] = drawnSums(control, inControl);
      const [n1, c1, w1] = drawnSums(arm, inArm);
      return n0 && n1 ? [c1 / n1 - c0 / n0, w1 / n1 - w0 / n0] : [null, null];
    },
    2,
    { B: options.B, seed: `${options.seed}:clicks:ctr-difference:${options.arm}`, level: options.level },
  );
  return { ctr, correctedCtr };
}

/**
 * CTR@1 prediction's RMSE with a percentile interval from resampling queries: its terms are per
 * (query, top result) test list, and a query's lists share that query's training sessions.
 */
export function rmseInterval(
  terms: readonly { query: number; weight: number; squaredError: number }[],
  options: ClickIntervalOptions,
): Interval | null {
  const queries = clusterIndex(terms.map((t) => String(t.query)));
  const sums = new Float64Array(queries.count * 2);
  terms.forEach((t, i) => {
    sums[queries.of[i] * 2] += t.weight * t.squaredError;
    sums[queries.of[i] * 2 + 1] += t.weight;
  });
  return bootstrapStatistics(
    queries.count,
    (counts) => {
      let sum = 0;
      let weights = 0;
      for (let q = 0; q < queries.count; q++) {
        sum += counts[q] * sums[q * 2];
        weights += counts[q] * sums[q * 2 + 1];
      }
      return [weights ? Math.sqrt(sum / weights) : null];
    },
    1,
    { ...options, seed: `${options.seed}:clicks:rmse` },
  )[0];
}

/**
 * Relevance AUC with a percentile interval from resampling the clusters of the judged occurrences'
 * sessions: each resample's AUC is the weighted Mann–Whitney form (an occurrence counts as often as its
 * cluster was drawn; ties one half). The occurrences are sorted by score once and counted per (tied
 * score, cluster), so a resample passes over those counts, not over every occurrence.
 */
export function aucInterval(
  pairs: { y: readonly number[]; yHat: readonly number[]; session: readonly number[] },
  clusters: { of: Int32Array; count: number },
  options: ClickIntervalOptions,
): Interval | null {
  const { ends, cluster, positives, negatives } = tiedCounts(pairs, clusters.of);
  return bootstrapStatistics(
    clusters.count,
    (counts) => {
      let below = 0;
      let drawnPositives = 0;
      let area = 0;
      for (let g = 0, e = 0; g < ends.length; g++) {
        let wp = 0;
        let wn = 0;
        for (; e < ends[g]; e++) {
          wp += counts[cluster[e]] * positives[e];
          wn += counts[cluster[e]] * negatives[e];
        }
        area += wp * (below + wn / 2);
        below += wn;
        drawnPositives += wp;
      }
      return [drawnPositives && below ? area / (drawnPositives * below) : null];
    },
    1,
    { ...options, seed: `${options.seed}:clicks:auc` },
  )[0];
}

/** The judged occurrences counted per (tied score, cluster), in score order; `ends[g]`: where group g's entries end. */
function tiedCounts(
  pairs: { y: readonly number[]; yHat: readonly number[]; session: readonly number[] },
  clusterOf: Int32Array,
) {
  const order = pairs.yHat.map((_, i) => i).sort((a, b) => pairs.yHat[a] - pairs.yHat[b]);
  const ends: number[] = [];
  const cluster: number[] = [];
  const positives: number[] = [];
  const negatives: number[] = [];
  for (let i = 0; i < order.length;) {
    const at = new Map<number, number>();
    let j = i;
    for (; j < order.length && pairs.yHat[order[j]] === pairs.yHat[order[i]]; j++) {
      const c = clusterOf[pairs.session[order[j]]];
      let e = at.get(c);
      if (e === undefined) {
        at.set(c, (e = cluster.length));
        cluster.push(c);
        positives.push(0);
        negatives.push(0);
      }
      if (pairs.y[order[j]]) positives[e]++;
      else negatives[e]++;
    }
    ends.push(cluster.length);
    i = j;
  }
  return { ends, cluster, positives, negatives };
}

/** A mean over queries (nDCG@5 of the ranking by relevance) with a percentile interval over queries. */
export function queryMeanInterval(values: readonly number[], options: ClickIntervalOptions): Interval | null {
  return bootstrapMeans([Float64Array.from(values)], { ...options, seed: `${options.seed}:clicks:ndcg5` })[0];
}
