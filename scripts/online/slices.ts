/**
 * Decisions per slice (a subject, a convener attribute's value): each slice's per-unit totals are read
 * like a whole experiment (decide.ts), slices with fewer than `minUnits` conveners in an arm say so
 * instead of giving a number, and the p-values of every slice and metric of the page are adjusted
 * together (Holm by default, Benjamini–Hochberg on request), the page told how many comparisons that was.
 */
import { adjustPValues, type Correction } from "../stats/multiple-testing";
import { decide, type DecisionSettings, type MetricDecision } from "./decide";
import type { OnlineEvent } from "./events";
import { NO_VALUE_SLICE } from "./slice-names";
import { addSession, emptySums, unitTotals, type SessionSums, type UnitTotals } from "./report";

export { NO_VALUE_SLICE };
export const DEFAULT_MIN_SLICE_UNITS = 10;

export type SliceResult =
  | { slice: string; units: Record<string, number>; tooFew: true; reason: string }
  | {
      slice: string;
      units: Record<string, number>;
      tooFew: false;
      decisions: (MetricDecision & { adjustedP: number | null })[];
    };

/** The p-value a decision shows: of the relative effect, adjusted when CUPED ran; null for the Bayesian engine. */
function shownP(d: MetricDecision): number | null {
  const o = (d.cuped ? d.cuped.result : d.unadjusted).relative;
  return o.kind === "frequentist" || o.kind === "sequential" ? o.pValue : null;
}

export function decideSlices(
  slices: ReadonlyMap<string, readonly UnitTotals[]>,
  control: string,
  settings: DecisionSettings,
  options: { pre?: ReadonlyMap<string, SessionSums>; minUnits?: number; correction?: Correction } = {},
): { slices: SliceResult[]; comparisons: number; correction: Correction } {
  return adjustSlices(sliceDecisions(slices, control, settings, options), options.correction ?? "holm");
}

/**
 * Both corrections of the same slices (the page's selector), each slice decided once: the decisions do
 * not depend on the correction, only their adjusted p does.
 */
export function decideSlicesBothWays(
  slices: ReadonlyMap<string, readonly UnitTotals[]>,
  control: string,
  settings: DecisionSettings,
  options: { pre?: ReadonlyMap<string, SessionSums>; minUnits?: number } = {},
) {
  const decided = sliceDecisions(slices, control, settings, options);
  return { holm: adjustSlices(decided, "holm"), bh: adjustSlices(decided, "bh") };
}

/** Each slice's decisions (adjusted p not yet set), or why it has too few conveners. */
function sliceDecisions(
  slices: ReadonlyMap<string, readonly UnitTotals[]>,
  control: string,
  settings: DecisionSettings,
  options: { pre?: ReadonlyMap<string, SessionSums>; minUnits?: number },
): SliceResult[] {
  const minUnits = options.minUnits ?? DEFAULT_MIN_SLICE_UNITS;
  return [...slices.keys()].sort().map((slice) => {
    const units = slices.get(slice)!;
    const counts: Record<string, number> = {};
    for (const u of units) counts[u.arm] = (counts[u.arm] ?? 0) + 1;
    const arms = Object.keys(counts);
    // A slice in one arm only has none in the other: 0, not the count of the arm it has.
    const smallest = arms.length < 2 ? 0 : Math.min(...[control, ...arms].map((a) => counts[a] ?? 0));
    if (arms.length < 2 || smallest < minUnits)
      return {
        slice,
        units: counts,
        tooFew: true,
        reason: `too few conveners: ${smallest} in an arm, at least ${minUnits} needed`,
      };
    const decisions = decide(units, control, settings, options.pre).map((d) => ({ ...d, adjustedP: null }));
    return { slice, units: counts, tooFew: false, decisions };
  });
}

/** The slices with every shown p adjusted together by `correction` (copies: the input is left as it was). */
function adjustSlices(decided: readonly SliceResult[], correction: Correction) {
  const results: SliceResult[] = decided.map((r) =>
    r.tooFew ? r : { ...r, decisions: r.decisions.map((d) => ({ ...d })) },
  );
  const all = results.flatMap((r) => (r.tooFew ? [] : r.decisions));
  const adjusted = adjustPValues(all.map(shownP), correction);
  all.forEach((d, i) => (d.adjustedP = adjusted[i]));
  return { slices: results, comparisons: adjusted.filter((p) => p !== null).length, correction };
}

/**
 * Per-convener totals of each slice of a proposal attribute (e.g. its subject): a session's events belong
 * to the slice of the proposal they carry, so a convener active in two subjects counts in both slices.
 * Events of a proposal the map does not know go to the slice "(unknown)", so nothing silently drops out.
 */
export function sliceByProposal(
  events: readonly OnlineEvent[],
  sliceOf: ReadonlyMap<string, string>,
): Map<string, UnitTotals[]> {
  const groups = new Map<string, OnlineEvent[]>();
  for (const e of events) {
    const slice = sliceOf.get(e.proposalId) ?? "(unknown)";
    const group = groups.get(slice);
    if (group) group.push(e);
    else groups.set(slice, [e]);
  }
  return new Map([...groups].map(([slice, group]) => [slice, unitTotals(group).units]));
}

/**
 * The same slices from per-session sums (the database's path): each session goes to the slice of its
 * proposal (`sliceOf[i]` for `sessions[i]`; null, a proposal or subject unknown, is "(unknown)"), and a
 * convener's sessions of one slice are summed, as `sliceByProposal` does from events.
 */
export function sliceBySession(
  sessions: readonly {
    unit: string;
    arm: string;
    shown: number;
    clicked: number;
    adopted: number;
    adoptedRankSum: number;
  }[],
  sliceOf: readonly (string | null)[],
): Map<string, UnitTotals[]> {
  const slices = new Map<string, Map<string, UnitTotals>>();
  sessions.forEach((s, i) => {
    const slice = sliceOf[i] ?? "(unknown)";
    let units = slices.get(slice);
    if (!units) slices.set(slice, (units = new Map()));
    let u = units.get(s.unit);
    if (!u) units.set(s.unit, (u = { unit: s.unit, arm: s.arm, ...emptySums() }));
    addSession(u, s);
  });
  const byUnit = (a: UnitTotals, b: UnitTotals) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0);
  return new Map([...slices].map(([slice, units]) => [slice, [...units.values()].sort(byUnit)]));
}

/**
 * Per-convener totals by an attribute of the convener (e.g. institution): unlike a subject, a convener
 * is in one slice with all their sessions. A convener with no imported value goes to "(no value)", so
 * nothing silently drops out and an imported "unknown" stays a value of its own.
 */
export function sliceByUnit(
  units: readonly UnitTotals[],
  valueOf: ReadonlyMap<string, string>,
): Map<string, UnitTotals[]> {
  const slices = new Map<string, UnitTotals[]>();
  for (const u of units) {
    const slice = valueOf.get(u.unit) ?? NO_VALUE_SLICE;
    const group = slices.get(slice);
    if (group) group.push(u);
    else slices.set(slice, [u]);
  }
  return slices;
}
