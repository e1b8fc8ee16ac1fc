import { canonicalJson } from "../lib/canonical";
import type { ResultRow } from "./rows";

/** A figure as one snapshot holds it: its value and 95% interval (null where it has none). */
export interface Estimate {
  value: number | null;
  lower: number | null;
  upper: number | null;
}

/** What differs in a figure between two snapshots: its value, its interval's bounds, or its presence. */
export type FigureChange = "value" | "interval" | "missing";

export interface ComparedFigure {
  /** The result's group ("overall", a subject, "gold", …): the comparison's sections. */
  section: string;
  system: string;
  measure: string;
  a: Estimate | null;
  b: Estimate | null;
  changes: FigureChange[];
}

export interface ComparedParameter {
  name: string;
  a: string | null;
  b: string | null;
  differs: boolean;
}

/** The order a reader looks for settings in; any other key follows, alphabetically. */
const FIRST = ["B", "seed", "ks", "intervals", "engine", "window", "strata", "from", "to"];

const shown = (v: unknown) => (v === undefined ? null : typeof v === "string" ? v : canonicalJson(v));

function order(names: Iterable<string>) {
  const rank = (n: string) => (FIRST.includes(n) ? FIRST.indexOf(n) : FIRST.length);
  return [...new Set(names)].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
}

/**
 * Two snapshots' parameters side by side: every setting (B, seed, window, strata, engine, …), every
 * field of the data window they were computed on (prefixed "data "), and the result's SHA-256, each
 * marked when it differs. A setting only one snapshot records reads as null on the other side.
 */
export function compareParameters(
  a: { parameters: unknown; dataWindow: unknown; sha256: string },
  b: { parameters: unknown; dataWindow: unknown; sha256: string },
): ComparedParameter[] {
  const rows: ComparedParameter[] = [];
  const add = (name: string, x: unknown, y: unknown) => {
    const [sa, sb] = [shown(x), shown(y)];
    rows.push({ name, a: sa, b: sb, differs: sa !== sb });
  };
  const pa = (a.parameters ?? {}) as Record<string, unknown>;
  const pb = (b.parameters ?? {}) as Record<string, unknown>;
  for (const name of order([...Object.keys(pa), ...Object.keys(pb)])) add(name, pa[name], pb[name]);
  const wa = (a.dataWindow ?? {}) as Record<string, unknown>;
  const wb = (b.dataWindow ?? {}) as Record<string, unknown>;
  for (const name of order([...Object.keys(wa), ...Object.keys(wb)])) add(`data ${name}`, wa[name], wb[name]);
  add("result sha256", a.sha256, b.sha256);
  return rows;
}

const estimate = (r: ResultRow): Estimate => ({ value: r.value, lower: r.lower, upper: r.upper });

function changesOf(a: Estimate | null, b: Estimate | null): FigureChange[] {
  if (!a || !b) return ["missing"];
  const changes: FigureChange[] = [];
  if (a.value !== b.value) changes.push("value");
  if (a.lower !== b.lower || a.upper !== b.upper) changes.push("interval");
  return changes;
}

/**
 * The figures of two results side by side, matched by (group, system or arm, measure): value and both
 * interval bounds compared, so two reports that agree on every point estimate but were bootstrapped
 * with another B or seed show their interval rows as different. Figures of the first result come in
 * its order, then those only in the second.
 */
export function compareFigures(aRows: ResultRow[], bRows: ResultRow[]): ComparedFigure[] {
  const key = (r: ResultRow) => `${r.group}\u0000${r.system}\u0000${r.measure}`;
  const inA = new Set(aRows.map(key));
  const bByKey = new Map(bRows.map((r) => [key(r), r]));
  const figure = (r: ResultRow, a: Estimate | null, b: Estimate | null): ComparedFigure => ({
    section: r.group,
    system: r.system,
    measure: r.measure,
    a,
    b,
    changes: changesOf(a, b),
  });
  return [
    ...aRows.map((r) => {
      const other = bByKey.get(key(r));
      return figure(r, estimate(r), other ? estimate(other) : null);
    }),
    ...bRows.filter((r) => !inA.has(key(r))).map((r) => figure(r, null, estimate(r))),
  ];
}

/** Keys that name what a snapshot is of (shown in its own column), not how it was computed. */
const SUBJECT_KEYS = new Set(["kind", "campaign", "experiment"]);

/** A snapshot's settings on one line for lists: "B 200 · seed e2e · ks [5,10]", in the reading order above. */
export function parameterSummary(parameters: unknown): string {
  const p = (parameters ?? {}) as Record<string, unknown>;
  return order(Object.keys(p))
    .filter((name) => !SUBJECT_KEYS.has(name) && p[name] !== undefined)
    .map((name) => `${name} ${shown(p[name])}`)
    .join(" · ");
}
