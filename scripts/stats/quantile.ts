/**
 * Quantile by linear interpolation between order statistics (Hyndman–Fan type 7, the default of
 * numpy and R): position h = (n − 1) p over the sorted values.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new Error("quantile of an empty sample");
  if (p < 0 || p > 1) throw new Error(`quantile probability ${p} is outside [0, 1]`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function quantile(values: ArrayLike<number>, p: number): number {
  return quantileSorted(Float64Array.from(values).sort(), p);
}

export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5);
}

/** The lower middle value for even counts (a grade that someone actually gave). */
export function lowerMedian(values: ArrayLike<number>): number {
  if (values.length === 0) throw new Error("median of an empty sample");
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) throw new Error("mean of an empty sample");
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Sample variance (n − 1 denominator). */
export function variance(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = mean(values);
  let s = 0;
  for (let i = 0; i < n; i++) s += (values[i] - m) ** 2;
  return s / (n - 1);
}
