/** One bin of a histogram of one series: values in [from, to) (the last bin also holds `to`). */
export interface HistogramBin {
  series: string;
  from: number;
  to: number;
  count: number;
}

/**
 * Histograms of several series on the same bins, so they can be drawn side by side or one panel
 * per series and compared (stacked bars would add them up). Bins have a whole-number width that
 * gives at most `maxBins` bins from 0 (or the least value) to the greatest value.
 */
export function sharedHistogram(
  series: { name: string; values: readonly number[] }[],
  maxBins = 25,
): HistogramBin[] {
  const all = series.flatMap((s) => s.values).filter(Number.isFinite);
  if (all.length === 0) return [];
  const low = Math.floor(Math.min(...all));
  const high = Math.max(...all);
  const width = Math.max(1, Math.ceil((high - low + 1) / maxBins));
  const count = Math.max(1, Math.ceil((high - low + 1e-9) / width));
  return series.flatMap((s) => {
    const counts = new Array<number>(count).fill(0);
    for (const v of s.values)
      if (Number.isFinite(v)) counts[Math.min(count - 1, Math.floor((v - low) / width))]++;
    return counts.map((c, i) => ({
      series: s.name,
      from: low + i * width,
      to: low + (i + 1) * width,
      count: c,
    }));
  });
}

/** One step of an empirical cumulative distribution with its band: the share at or below `value`. */
export interface CdfPoint {
  series: string;
  value: number;
  share: number;
  lower: number;
  upper: number;
}

/**
 * The empirical cumulative distribution of each series over `total` cases (cases without a value
 * count in the total and never reach the curve), with a simultaneous 95% band from the
 * Dvoretzky–Kiefer–Wolfowitz inequality (ε = √(ln(2/α) / 2n)): the whole curve lies in it with
 * probability at least 95%, not just each point.
 */
export function cdfWithBand(
  series: { name: string; values: readonly number[]; total: number }[],
  alpha = 0.05,
): CdfPoint[] {
  return series.flatMap((s) => {
    if (s.total <= 0) return [];
    const epsilon = Math.sqrt(Math.log(2 / alpha) / (2 * s.total));
    const sorted = s.values.filter(Number.isFinite).sort((a, b) => a - b);
    const points: CdfPoint[] = [];
    sorted.forEach((value, i) => {
      // Ties make one step, at the last of the equal values.
      if (i + 1 < sorted.length && sorted[i + 1] === value) return;
      const share = (i + 1) / s.total;
      points.push({
        series: s.name,
        value,
        share,
        lower: Math.max(0, share - epsilon),
        upper: Math.min(1, share + epsilon),
      });
    });
    return points;
  });
}
