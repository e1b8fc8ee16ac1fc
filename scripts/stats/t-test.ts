import { studentTTwoSidedP } from "./distributions";
import { mean, variance } from "./quantile";

export interface OneSampleT {
  n: number;
  mean: number;
  tStatistic: number;
  pValue: number;
}

/**
 * One-sample t-test of values against 0, two-sided, as `scipy.stats.ttest_1samp(values, 0)`:
 * t = mean / (s / √n) with s the sample standard deviation (n − 1), df = n − 1. Null when there are
 * fewer than 2 values or they do not vary (scipy would give NaN or ±inf there: no test to report).
 */
export function oneSampleTTest(values: ArrayLike<number>): OneSampleT | null {
  const n = values.length;
  if (n < 2) return null;
  const s2 = variance(values);
  if (!(s2 > 0)) return null;
  const m = mean(values);
  const t = m / Math.sqrt(s2 / n);
  return { n, mean: m, tStatistic: t, pValue: studentTTwoSidedP(t, n - 1) };
}

export interface WelchT {
  tStatistic: number;
  /** Welch–Satterthwaite degrees of freedom (not a whole number in general). */
  df: number;
  pValue: number;
}

/**
 * Welch's two-sample t-test of a against b, two-sided, as `scipy.stats.ttest_ind(a, b, equal_var=False)`:
 * t = (mean a − mean b) / √(s²a/na + s²b/nb) with sample variances (n − 1), df by Welch–Satterthwaite
 * (s²a/na + s²b/nb)² / ((s²a/na)²/(na − 1) + (s²b/nb)²/(nb − 1)). Null when a side has fewer than 2
 * values or neither varies (scipy gives NaN there: no test to report).
 */
export function welchTTest(a: ArrayLike<number>, b: ArrayLike<number>): WelchT | null {
  if (a.length < 2 || b.length < 2) return null;
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  if (!(va + vb > 0)) return null;
  const t = (mean(a) - mean(b)) / Math.sqrt(va + vb);
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  return { tStatistic: t, df, pValue: studentTTwoSidedP(t, df) };
}
