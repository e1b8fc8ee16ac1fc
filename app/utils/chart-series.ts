/**
 * The series a chart draws, as one list that gives each its colour, dash and label: the marks take
 * their colour scale from it and the legend is drawn from it, so a legend can never name a series that
 * is not drawn, miss one that is, or show another colour or dash than its line.
 */
export interface Series {
  key: string;
  label: string;
  color: string;
  /** An SVG stroke-dasharray ("4 3"), or null for a solid line. */
  dash: string | null;
  /** A shaded band (an interval) rather than a line: the legend shows a filled swatch. */
  band?: boolean;
}

/** Observable Plot's default categorical colours (observable10), so charts keep the colours they had. */
export const SERIES_COLOURS = [
  "#4269d0",
  "#efb118",
  "#ff725c",
  "#6cc5b0",
  "#3ca951",
  "#ff8ab7",
  "#a463f2",
  "#97bbf5",
  "#9c6b4e",
  "#9498a0",
];

/**
 * The series present in `points` (one per distinct key that has at least one point with a value), in
 * the order they first appear, or in `order` when given (keys absent from the points are left out).
 */
export function plottedSeries<T>(
  points: readonly T[],
  keyOf: (p: T) => string,
  options: {
    hasValue?: (p: T) => boolean;
    order?: readonly string[];
    label?: (key: string) => string;
    color?: (key: string, index: number) => string;
    dash?: (key: string) => string | null;
  } = {},
): Series[] {
  const present = new Set<string>();
  for (const p of points) if (options.hasValue?.(p) ?? true) present.add(keyOf(p));
  const keys = options.order ? options.order.filter((k) => present.has(k)) : [...present];
  return keys.map((key, i) => ({
    key,
    label: options.label?.(key) ?? key,
    color: options.color?.(key, i) ?? SERIES_COLOURS[i % SERIES_COLOURS.length],
    dash: options.dash?.(key) ?? null,
  }));
}

/** Plot's colour scale for exactly these series; Plot's own legend stays off (the chart draws this list). */
export function seriesScale(series: readonly Series[]) {
  return { domain: series.map((s) => s.key), range: series.map((s) => s.color), legend: false };
}

/**
 * A cumulative series ends at its last data point: each series' points after the last one that
 * `isData` accepts (a day on which the series grew) are dropped, so no line runs flat past its data
 * to the end of the axis. Points before it are kept as they are, and a series without data is dropped.
 */
export function untilLastPoint<T>(
  points: readonly T[],
  keyOf: (p: T) => string,
  isData: (p: T, previous: T | undefined) => boolean,
): T[] {
  const last = new Map<string, number>();
  const previous = new Map<string, T>();
  points.forEach((p, i) => {
    const key = keyOf(p);
    if (isData(p, previous.get(key))) last.set(key, i);
    previous.set(key, p);
  });
  return points.filter((p, i) => i <= (last.get(keyOf(p)) ?? -1));
}

/** A tick on an axis drawn with Plot's `percent: true` (values already ×100): "40%". */
export function percentTick(v: number): string {
  return `${Number(v.toFixed(6))}%`;
}
