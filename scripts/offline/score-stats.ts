import { quantileSorted } from "../stats/quantile";

/**
 * One evaluated list as the score measures read it: the proposal's first query variant (the list
 * Coverage@K reads), its candidates in rank order and, when the system gave them, their scores
 * (null for an item without one).
 */
export interface ScoredList {
  proposal: string;
  subject: string | null;
  items: readonly string[];
  scores: readonly (number | null)[] | null;
}

/** Summary of the scores a system gave at ranks 1..depth. */
export interface ScoreSummary {
  /** Scored items at ranks 1..depth (items without a score are left out). */
  count: number;
  mean: number | null;
  /** Sample standard deviation (n − 1 denominator); null below two scores. */
  sd: number | null;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
  /** Equal-width bins over [min, max] of the system's overall scores (the same edges in every subject). */
  histogram: { lower: number; upper: number; count: number }[];
  /** Mean score at rank 1, 2, …, depth (null where no list reaches that rank with a score). */
  meanByRank: (number | null)[];
}

/** Score statistics of one system; `scored: false` when none of its lists carries a score. */
export type ScoreStats =
  | { scored: true; depth: number; overall: ScoreSummary; subjects: Record<string, ScoreSummary> }
  | { scored: false; depth: number };

export const HISTOGRAM_BINS = 10;

/**
 * Score statistics at ranks 1..depth (depth = the largest K of the grid), overall and per subject:
 * mean, sample SD, quartiles by linear interpolation between order statistics (Hyndman–Fan type 7,
 * numpy's and R's default: position (n − 1)p over the sorted scores), a histogram in 10 equal-width
 * bins (each bin [lower, upper), the last one closed) and the mean score at each rank. Scores are the
 * system's own numbers, not probabilities: they compare across ranks and subjects of one system only.
 */
export function scoreStats(lists: readonly ScoredList[], depth: number): ScoreStats {
  const scored = lists.filter((l) => l.scores?.some((s) => s !== null && Number.isFinite(s)));
  if (scored.length === 0) return { scored: false, depth };
  const all = topScores(scored, depth);
  let min = Infinity;
  let max = -Infinity;
  for (const v of all) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const edges = all.length ? histogramEdges(min, max, HISTOGRAM_BINS) : [];
  const subjectNames = [...new Set(lists.map((l) => l.subject ?? "(none)"))].sort();
  return {
    scored: true,
    depth,
    overall: summarise(scored, depth, edges),
    subjects: Object.fromEntries(
      subjectNames.map((name) => [
        name,
        summarise(
          scored.filter((l) => (l.subject ?? "(none)") === name),
          depth,
          edges,
        ),
      ]),
    ),
  };
}

function topScores(lists: readonly ScoredList[], depth: number): Float64Array {
  const out: number[] = [];
  for (const l of lists) {
    const n = Math.min(depth, l.items.length);
    for (let r = 0; r < n; r++) {
      const s = l.scores?.[r];
      if (s !== null && s !== undefined && Number.isFinite(s)) out.push(s);
    }
  }
  return Float64Array.from(out);
}

/** `bins` + 1 equal-width edges from min to max (one bin of width 0 when every score is the same). */
export function histogramEdges(min: number, max: number, bins: number): number[] {
  if (max === min) return [min, max];
  return Array.from({ length: bins + 1 }, (_, i) => (i === bins ? max : min + ((max - min) * i) / bins));
}

function summarise(lists: readonly ScoredList[], depth: number, edges: number[]): ScoreSummary {
  const values = topScores(lists, depth).sort();
  const n = values.length;
  const sums = new Float64Array(depth);
  const counts = new Float64Array(depth);
  for (const l of lists) {
    for (let r = 0; r < Math.min(depth, l.items.length); r++) {
      const s = l.scores?.[r];
      if (s === null || s === undefined || !Number.isFinite(s)) continue;
      sums[r] += s;
      counts[r]++;
    }
  }
  const histogram = edges.slice(0, -1).map((lower, i) => ({ lower, upper: edges[i + 1], count: 0 }));
  // The values are sorted, so each one's bin (the first whose upper edge is above it, else the last)
  // is found by walking the bins once.
  const last = histogram.length - 1;
  let b = 0;
  for (const v of values) {
    while (b < last && !(v < histogram[b].upper)) b++;
    if (histogram.length) histogram[b].count++;
  }
  let mean = 0;
  for (const v of values) mean += v / n;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  const q = (p: number) => (n ? quantileSorted(values, p) : null);
  return {
    count: n,
    mean: n ? mean : null,
    sd: n > 1 ? Math.sqrt(ss / (n - 1)) : null,
    min: n ? values[0] : null,
    q1: q(0.25),
    median: q(0.5),
    q3: q(0.75),
    max: n ? values[n - 1] : null,
    histogram,
    meanByRank: Array.from(sums, (s, r) => (counts[r] ? s / counts[r] : null)),
  };
}
