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
