/**
 * The one module that turns numbers into text for every dashboard (style guide: "one module for number
 * formatting"). Pure, no React, shared by the browser and the server. Rules, so one page never shows
 * 0.0095 beside 0.95 pp: rates are percentages ("12.3%"), differences of rates percentage points
 * ("+1.2 pp"), p-values two significant digits with "< 0.001" below 0.001, everything else three
 * significant digits; a missing or undefined number is "—". CSV downloads never go through here.
 */

/** What a number measures, which decides its unit. */
export type MetricKind = "rate" | "rank" | "count" | "score";
/** Which way is good for a metric. */
export type Direction = "higher" | "lower";

const MISSING = "—";
const MINUS = "\u2212";
/** Between a number and its unit or comparator, so "< 0.001" and "+1.2 pp" never break across lines. */
const NBSP = "\u00a0";

const missing = (v: number | null | undefined): v is null | undefined =>
  v === null || v === undefined || Number.isNaN(v);
const signOf = (v: number, signed: boolean) => (v < 0 ? MINUS : signed && v > 0 ? "+" : "");
const thousands = (v: number) => Math.round(v).toLocaleString("en-US");

/** A plain magnitude with three significant digits: integers whole, big values with thousands separators. */
function magnitude(v: number): string {
  if (v === Infinity) return "∞";
  if (Number.isInteger(v) || v >= 1000) return thousands(v);
  return v.toPrecision(3);
}

/** Any number with three significant digits ("0.976", "1.00", "3", "12,346"); "−" for negatives, "—" for none. */
export function formatNumber(v: number | null | undefined, { signed = false } = {}): string {
  if (missing(v)) return MISSING;
  return `${signOf(v, signed)}${magnitude(Math.abs(v))}`;
}

/** A count: a whole number with thousands separators ("12,345"). */
export function formatCount(v: number | null | undefined): string {
  if (missing(v)) return MISSING;
  if (!Number.isFinite(v)) return formatNumber(v);
  return `${signOf(v, false)}${thousands(Math.abs(v))}`;
}

/**
 * A share of 100 points ("12.3%", "0.95%", "100%"): one decimal from 1 on, two significant digits below,
 * "< 0.01" for tiny non-zero values; a value just under 1 (or over 0) never rounds to look exactly 100 (or 0).
 */
function points(p: number, signed: boolean, unit: string): string {
  if (Number.isNaN(p)) return MISSING;
  const sign = signOf(p, signed);
  const a = Math.abs(p);
  if (a === Infinity) return `${sign}∞${unit}`;
  if (a === 0 || a === 100) return `${sign}${a}${unit}`;
  if (a < 0.01) return `${sign === MINUS ? ">" + NBSP + MINUS : "<" + NBSP}0.01${unit}`;
  if (a < 1) return `${sign}${a.toPrecision(2)}${unit}`;
  const shown = a.toFixed(1);
  if (shown === "100.0" && a < 100) return `${sign === MINUS ? "<" + NBSP + MINUS : ">" + NBSP}99.9${unit}`;
  return `${sign}${a >= 1000 ? thousands(a) : shown}${unit}`;
}

/** A rate (0–1) as a percentage: 0.123 → "12.3%", 1 → "100%", 0.0095 → "0.95%". */
export function formatRate(v: number | null | undefined): string {
  return missing(v) ? MISSING : points(v * 100, false, "%");
}

/** A difference of two rates in percentage points, signed: 0.012 → "+1.2 pp". */
export function formatPp(v: number | null | undefined): string {
  return missing(v) ? MISSING : points(v * 100, true, `${NBSP}pp`);
}

/** A relative lift as a signed percentage: −0.022 → "−2.2%". */
export function formatLift(v: number | null | undefined): string {
  return missing(v) ? MISSING : points(v * 100, true, "%");
}

/** A p-value with two significant digits, "< 0.001" below 0.001: never "0" or "0.0000". */
export function formatP(p: number | null | undefined): string {
  if (missing(p)) return MISSING;
  if (p < 0.001) return `<${NBSP}0.001`;
  if (p >= 1) return "1.0";
  return p.toPrecision(2);
}

/** A value of the given kind in its unit: rates as percentages, counts whole, ranks and scores three digits. */
export function formatValue(v: number | null | undefined, kind: MetricKind): string {
  if (kind === "rate") return formatRate(v);
  if (kind === "count") return formatCount(v);
  return formatNumber(v);
}

/** A difference of two values of the given kind: rates in percentage points, the rest signed, three digits. */
export function formatDifference(v: number | null | undefined, kind: MetricKind): string {
  return kind === "rate" ? formatPp(v) : formatNumber(v, { signed: true });
}

/**
 * An interval as "[a, b]", each end through the same formatter as its value ("[10.1%, 14.2%]"); the
 * space after the comma does not break, so an interval never wraps in a narrow column.
 */
export function formatCi(
  ci: { lower: number; upper: number } | null | undefined,
  format: (v: number) => string,
): string {
  if (!ci || missing(ci.lower) || missing(ci.upper)) return MISSING;
  return `[${format(ci.lower)},${NBSP}${format(ci.upper)}]`;
}

/** How a difference with its interval reads against the metric's direction. */
export type Verdict = "better" | "worse" | "inconclusive";

/**
 * Better, worse or inconclusive: a difference whose 95% interval crosses (or touches) 0, or that has no
 * interval, is inconclusive; otherwise its sign read through the direction ("lower is better" flips it).
 */
export function verdict(
  difference: number | null | undefined,
  ci: { lower: number; upper: number } | null | undefined,
  direction: Direction,
): Verdict {
  if (missing(difference) || !ci || missing(ci.lower) || missing(ci.upper)) return "inconclusive";
  if (ci.lower <= 0 && ci.upper >= 0) return "inconclusive";
  const up = ci.lower > 0;
  return up === (direction === "higher") ? "better" : "worse";
}

/**
 * The same reading for a test that gives a p-value but no interval (the offline pairwise comparison):
 * significant at `alpha` counts by the sign of the difference, otherwise inconclusive.
 */
export function verdictByP(
  difference: number | null | undefined,
  p: number | null | undefined,
  direction: Direction,
  alpha = 0.05,
): Verdict {
  if (missing(difference) || missing(p) || p >= alpha || difference === 0) return "inconclusive";
  return difference > 0 === (direction === "higher") ? "better" : "worse";
}

/**
 * A count and its noun, agreeing ("1 row", "2 rows", "12,345 rows"): the one place a page puts a
 * number before a word. `many` is for nouns whose plural is not the word plus "s".
 */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

// Dates in UTC with the zone named: the server renders what the browser hydrates, whatever either's zone.
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const asDate = (v: Date | string) => (typeof v === "string" ? new Date(v) : v);
const invalid = (d: Date) => Number.isNaN(d.getTime());

/** A day ("27 Nov 2026"); "—" for none or an unreadable date. */
export function formatDate(v: Date | string | null | undefined): string {
  if (v === null || v === undefined) return MISSING;
  const d = asDate(v);
  return invalid(d) ? MISSING : dayFormat.format(d).replace(/ /g, NBSP);
}

/** A moment to the minute, in UTC ("27 Nov 2026, 07:49 UTC"); "—" for none. */
export function formatDateTime(v: Date | string | null | undefined): string {
  if (v === null || v === undefined) return MISSING;
  const d = asDate(v);
  return invalid(d) ? MISSING : `${formatDate(d)}, ${timeFormat.format(d)}${NBSP}UTC`;
}
