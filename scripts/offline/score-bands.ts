import { quantileSorted } from "../stats/quantile";
import type { Interval } from "../stats/bootstrap";
import { normalQuantile } from "../stats/distributions";
import type { ScoredList } from "./score-stats";

/** One score band: scores in [lower, upper) (no lower bound for the lowest band, no upper for the highest). */
export interface ScoreBand {
  lower: number | null;
  upper: number | null;
  candidates: number;
  /** Candidates of the band who sat on the proposal's committee (gold members). */
  members: number;
  /** members / candidates; null for an empty band. */
  share: number | null;
  /** Wilson score interval of the share at the report's level; null for an empty band. */
  ci: Interval | null;
  /** Mean score in the band (the reliability diagram's x). */
  meanScore: number | null;
}

export interface ScoreBands {
  /** "deciles": edges at the deciles of the system's scores; "given": the thresholds of `--bands`. */
  method: "deciles" | "given";
  /** The thresholds, ascending (duplicates of tied deciles merged). */
  thresholds: number[];
  level: number;
  /** Highest band first. */
  bands: ScoreBand[];
}

/**
 * Score bands (a reliability diagram): every scored candidate of every evaluated list (full depth), put
 * into bands by score, and per band the share who are committee members. A system whose share rises
 * with the band answers "a higher score means a likelier committee member". Bands are cut at the
 * system's score deciles (type-7 quantiles 0.1 … 0.9; tied deciles merge into one edge) or at the
 * given thresholds; a band holds lower ≤ score < upper (empty decile bands are left out, empty given ones kept). The interval is Wilson's score interval
 * (Wilson 1927; also statsmodels' `proportion_confint(method="wilson")`), which treats candidates as
 * independent: candidates of one list are not, so read it as a lower bound on the uncertainty.
 * Null when the system gives no scores.
 */
export function scoreBands(
  lists: readonly ScoredList[],
  gold: ReadonlyMap<string, ReadonlySet<string>>,
  options: { thresholds?: readonly number[]; level?: number } = {},
): ScoreBands | null {
  const level = options.level ?? 0.95;
  const scores: number[] = [];
  const member: boolean[] = [];
  for (const l of lists) {
    const committee = gold.get(l.proposal);
    l.items.forEach((c, r) => {
      const s = l.scores?.[r];
      if (s === null || s === undefined || !Number.isFinite(s)) return;
      scores.push(s);
      member.push(committee?.has(c) ?? false);
    });
  }
  if (scores.length === 0) return null;
  const given = options.thresholds && options.thresholds.length > 0;
  const sorted = Float64Array.from(scores).sort();
  const raw = given
    ? [...options.thresholds!]
    : Array.from({ length: 9 }, (_, i) => quantileSorted(sorted, (i + 1) / 10));
  const thresholds = [...new Set(raw)].sort((a, b) => a - b);
  const nBands = thresholds.length + 1;
  const counts = new Float64Array(nBands);
  const hits = new Float64Array(nBands);
  const sums = new Float64Array(nBands);
  scores.forEach((s, i) => {
    const b = bandOf(s, thresholds);
    counts[b]++;
    sums[b] += s;
    if (member[i]) hits[b]++;
  });
  const bands: ScoreBand[] = [];
  for (let b = nBands - 1; b >= 0; b--) {
    const n = counts[b];
    bands.push({
      lower: b === 0 ? null : thresholds[b - 1],
      upper: b === nBands - 1 ? null : thresholds[b],
      candidates: n,
      members: hits[b],
      share: n ? hits[b] / n : null,
      ci: n ? wilsonInterval(hits[b], n, level) : null,
      meanScore: n ? sums[b] / n : null,
    });
  }
  // A decile edge at the lowest score leaves an empty band below it: only given bands are kept empty.
  return {
    method: given ? "given" : "deciles",
    thresholds,
    level,
    bands: given ? bands : bands.filter((b) => b.candidates > 0),
  };
}

/** Index of the band of score s: the number of thresholds ≤ s. */
function bandOf(s: number, thresholds: readonly number[]): number {
  let lo = 0;
  let hi = thresholds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (thresholds[mid] <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Wilson score interval for x successes in n trials: (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n),
 * z the two-sided normal quantile of `level`. Stays inside [0, 1] and is sensible at p̂ = 0 or 1.
 */
export function wilsonInterval(x: number, n: number, level = 0.95): Interval {
  if (n <= 0) throw new Error("the Wilson interval needs at least one trial");
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = x / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 (x = n) the bound is exactly 0 (1); rounding would leave 1e-17 there.
  return { lower: x === 0 ? 0 : Math.max(0, centre - half), upper: x === n ? 1 : Math.min(1, centre + half) };
}
