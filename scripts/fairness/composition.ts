import { bootstrapStatistics, type BootstrapOptions } from "../stats/bootstrap";
import { DEFAULT_MIN_GROUP, pooled, type Figure } from "./report";
import { adjustPValues } from "../stats/multiple-testing";

/** A graded pair with its label (the aggregated grade 1–4: the median, or the adjudicated grade). */
export interface LabelledPair {
  proposal: string;
  candidate: string;
  grade: number;
}

/** The grades that count as "relevant" on the campaign page (3 good, 4 excellent). */
export const HIGH_GRADE = 3;

export interface GradedGroup {
  poolSize: number;
  poolShare: number;
  /** Set when the group is smaller than the minimum: then no figure is given. */
  suppressed?: string;
  /** The group's share among all labelled pairs. */
  graded?: Figure;
  /** The group's share among pairs labelled 3–4. */
  high?: Figure;
  /** high − graded: positive when experts grade the group's members relevant more often than others. */
  difference?: Figure;
}

export interface GradedAttribute {
  pairs: number;
  highPairs: number;
  groups: Record<string, GradedGroup>;
}

/**
 * The group counts of each proposal's labelled pairs, as flat columns: `all[p]` and `high[p]` pairs, and per
 * group `groupAll[g][p]`, `groupHigh[g][p]`.
 */
function proposalCounts(
  pairs: readonly LabelledPair[],
  proposals: readonly string[],
  groups: readonly string[],
  valueOf: (candidate: string) => string,
) {
  const at = new Map(proposals.map((p, i) => [p, i]));
  const index = new Map(groups.map((g, i) => [g, i]));
  const n = proposals.length;
  const all = new Float64Array(n);
  const high = new Float64Array(n);
  const groupAll = groups.map(() => new Float64Array(n));
  const groupHigh = groups.map(() => new Float64Array(n));
  for (const pair of pairs) {
    const p = at.get(pair.proposal)!;
    const g = index.get(valueOf(pair.candidate));
    const isHigh = pair.grade >= HIGH_GRADE;
    all[p]++;
    if (isHigh) high[p]++;
    if (g === undefined) continue;
    groupAll[g][p]++;
    if (isHigh) groupHigh[g][p]++;
  }
  return { all, high, groupAll, groupHigh };
}

/** Σ w·x over Σ w·d, the share as a ratio of sums over the (resampled) proposals; null when Σ w·d is 0. */
function ratioOfSums(x: Float64Array, d: Float64Array, w: Uint32Array | null) {
  let num = 0;
  let den = 0;
  for (let i = 0; i < x.length; i++) {
    const weight = w ? w[i] : 1;
    num += weight * x[i];
    den += weight * d[i];
  }
  return den > 0 ? num / den : null;
}

/**
 * Are the experts' grades themselves skewed by group (issue 27, the expert tier)? For each attribute and
 * group: its share among the labelled pairs, among pairs labelled 3–4, and the difference, each a ratio
 * of sums over proposals with a percentile bootstrap CI over proposals (all figures from the same
 * resamples). The pool is every candidate with an attribute value plus the pairs' candidates without one
 * ("unknown"); groups with fewer than `minGroup` pool members get no figure ("fewer than 5").
 */
export function gradesByGroup(input: {
  pairs: readonly LabelledPair[];
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  minGroup?: number;
  bootstrap?: BootstrapOptions;
}): Record<string, GradedAttribute> {
  const minGroup = input.minGroup ?? DEFAULT_MIN_GROUP;
  const byProposal = new Map<string, string[]>();
  for (const p of input.pairs)
    byProposal.set(p.proposal, [...(byProposal.get(p.proposal) ?? []), p.candidate]);
  const proposals = [...byProposal.keys()].sort();
  const pools = pooled({ lists: new Map([["", byProposal]]), attributes: input.attributes, ks: [] });
  const out: Record<string, GradedAttribute> = {};
  for (const [name, values] of pools) {
    const sizes = new Map<string, number>();
    for (const v of values.values()) sizes.set(v, (sizes.get(v) ?? 0) + 1);
    const shown = [...sizes.keys()].filter((g) => sizes.get(g)! >= minGroup).sort();
    const counts = proposalCounts(input.pairs, proposals, shown, (c) => values.get(c)!);
    const statistics = (w: Uint32Array | null) =>
      shown.flatMap((_, g) => {
        const graded = ratioOfSums(counts.groupAll[g], counts.all, w);
        const high = ratioOfSums(counts.groupHigh[g], counts.high, w);
        return [graded, high, graded !== null && high !== null ? high - graded : null];
      });
    const values0 = statistics(null);
    const cis = bootstrapStatistics(proposals.length, statistics, values0.length, input.bootstrap ?? {});
    const figure = (j: number): Figure => ({ value: values0[j], ci: cis[j], lists: proposals.length });
    const groups: Record<string, GradedGroup> = {};
    for (const [group, size] of [...sizes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const g = shown.indexOf(group);
      const base = { poolSize: size, poolShare: size / values.size };
      groups[group] =
        g < 0
          ? { ...base, suppressed: `fewer than ${minGroup}` }
          : { ...base, graded: figure(3 * g), high: figure(3 * g + 1), difference: figure(3 * g + 2) };
    }
    const sum = (x: Float64Array) => x.reduce((s, v) => s + v, 0);
    out[name] = { pairs: sum(counts.all), highPairs: sum(counts.high), groups };
  }
  return out;
}

/** One adopted candidate: the convener (unit) who adopted it and the arm (A/B) or team (interleaving) it is credited to. */
export interface Adoption {
  unit: string;
  arm: string;
  candidate: string;
}

/** A difference between an arm's share and the control's, with its bootstrap test. */
/** `adjustedP`: the p-value adjusted by Holm across every group's difference of the composition. */
export type ShareDifference = Figure & { pValue: number | null; adjustedP?: number | null };

export interface AdoptedGroup {
  poolSize: number;
  poolShare: number;
  suppressed?: string;
  /** arm → the group's share among the arm's adopted candidates */
  arms?: Record<string, Figure>;
  /** non-control arm → its share minus the control's */
  differences?: Record<string, ShareDifference>;
}

export interface AdoptedAttribute {
  groups: Record<string, AdoptedGroup>;
}

export interface AdoptedComposition {
  control: string;
  arms: string[];
  /** arm → adopted candidates and the conveners who adopted any */
  adopted: Record<string, { candidates: number; units: number }>;
  attributes: Record<string, AdoptedAttribute>;
  /** How many differences (groups × non-control arms) with a p-value the Holm adjustment spans. */
  comparisons?: number;
}

/**
 * Two-sided p-value of a percentile bootstrap test of "no difference": twice the smaller share of the
 * resampled differences on either side of 0, i.e. the smallest level at which the percentile interval
 * excludes 0.
 */
function bootstrapP(draws: readonly number[]) {
  const finite = draws.filter((d) => !Number.isNaN(d));
  if (finite.length === 0) return null;
  const below = finite.filter((d) => d <= 0).length / finite.length;
  const above = finite.filter((d) => d >= 0).length / finite.length;
  return Math.min(1, 2 * Math.min(below, above));
}

/** Per unit and arm: adopted candidates, and those of each shown group, as flat columns over units. */
function adoptionCounts(
  adoptions: readonly Adoption[],
  units: readonly string[],
  arms: readonly string[],
  groups: readonly string[],
  valueOf: (candidate: string) => string,
) {
  const at = new Map(units.map((u, i) => [u, i]));
  const armAt = new Map(arms.map((a, i) => [a, i]));
  const groupAt = new Map(groups.map((g, i) => [g, i]));
  const all = arms.map(() => new Float64Array(units.length));
  const inGroup = groups.map(() => arms.map(() => new Float64Array(units.length)));
  for (const a of adoptions) {
    const u = at.get(a.unit)!;
    const arm = armAt.get(a.arm)!;
    all[arm][u]++;
    const g = groupAt.get(valueOf(a.candidate));
    if (g !== undefined) inGroup[g][arm][u]++;
  }
  return { all, inGroup };
}

/**
 * The composition of adopted candidates per arm of an A/B experiment or per team of an interleaving one
 * (issue 27, the online tier): each group's share among each arm's adopted candidates (a ratio of sums
 * over conveners), and each arm's difference from the control. Intervals are percentile bootstrap
 * intervals over conveners (a convener's adoptions stay together, so one convener's habits count once;
 * an interleaving convener's adoptions in both teams stay paired), the test the matching bootstrap test
 * (`bootstrapP`). Pool and "fewer than 5" as in `gradesByGroup`.
 */
export function adoptedComposition(input: {
  adoptions: readonly Adoption[];
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  control: string;
  arms: readonly string[];
  minGroup?: number;
  bootstrap?: BootstrapOptions;
}): AdoptedComposition {
  const minGroup = input.minGroup ?? DEFAULT_MIN_GROUP;
  const { control, arms } = input;
  const units = [...new Set(input.adoptions.map((a) => a.unit))].sort();
  const adopted = Object.fromEntries(
    arms.map((arm) => {
      const mine = input.adoptions.filter((a) => a.arm === arm);
      return [arm, { candidates: mine.length, units: new Set(mine.map((a) => a.unit)).size }];
    }),
  );
  const lists = new Map([["", new Map([["", input.adoptions.map((a) => a.candidate)]])]]);
  const pools = pooled({ lists, attributes: input.attributes, ks: [] });
  const attributes: Record<string, AdoptedAttribute> = {};
  for (const [name, values] of pools) attributes[name] = adoptedAttribute(input, units, values, minGroup);
  return { control, arms: [...arms], adopted, attributes, comparisons: holmAcrossGroups(attributes) };
}

/**
 * Adjusts every group's difference p-value together (Holm, as the slices are), over all attributes and
 * non-control arms: with dozens of groups some p-values fall under 0.05 by chance. Returns the count.
 */
function holmAcrossGroups(attributes: Record<string, AdoptedAttribute>): number {
  const differences = Object.values(attributes).flatMap((a) =>
    Object.values(a.groups).flatMap((g) => Object.values(g.differences ?? {})),
  );
  const adjusted = adjustPValues(
    differences.map((d) => d.pValue),
    "holm",
  );
  differences.forEach((d, i) => (d.adjustedP = adjusted[i]));
  return differences.filter((d) => d.pValue !== null).length;
}

function adoptedAttribute(
  input: Parameters<typeof adoptedComposition>[0],
  units: readonly string[],
  values: ReadonlyMap<string, string>,
  minGroup: number,
): AdoptedAttribute {
  const { control, arms } = input;
  const sizes = new Map<string, number>();
  for (const v of values.values()) sizes.set(v, (sizes.get(v) ?? 0) + 1);
  const shown = [...sizes.keys()].filter((g) => sizes.get(g)! >= minGroup).sort();
  const { all, inGroup } = adoptionCounts(input.adoptions, units, arms, shown, (c) => values.get(c)!);
  const c = arms.indexOf(control);
  const others = arms.flatMap((a, i) => (i === c ? [] : [i]));
  const perGroup = arms.length + others.length;
  const draws: number[][] = shown.flatMap(() => others.map(() => []));
  const statistics = (w: Uint32Array | null) =>
    shown.flatMap((_, g) => {
      const shares = arms.map((_, a) => ratioOfSums(inGroup[g][a], all[a], w));
      const differences = others.map((a) => {
        const d = shares[a] !== null && shares[c] !== null ? shares[a]! - shares[c]! : null;
        if (w) draws[g * others.length + others.indexOf(a)].push(d ?? NaN);
        return d;
      });
      return [...shares, ...differences];
    });
  const point = statistics(null);
  const cis = bootstrapStatistics(units.length, statistics, point.length, input.bootstrap ?? {});
  const figure = (j: number): Figure => ({ value: point[j], ci: cis[j], lists: units.length });
  const groups: Record<string, AdoptedGroup> = {};
  for (const [group, size] of [...sizes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const g = shown.indexOf(group);
    const base = { poolSize: size, poolShare: size / values.size };
    if (g < 0) {
      groups[group] = { ...base, suppressed: `fewer than ${minGroup}` };
      continue;
    }
    const offset = g * perGroup;
    groups[group] = {
      ...base,
      arms: Object.fromEntries(arms.map((arm, a) => [arm, figure(offset + a)])),
      differences: Object.fromEntries(
        others.map((a, i) => [
          arms[a],
          { ...figure(offset + arms.length + i), pValue: bootstrapP(draws[g * others.length + i]) },
        ]),
      ),
    };
  }
  return { groups };
}

/** A bound on a group's share of adopted candidates (the share guardrail of scripts/inputs/guardrails.ts). */
export interface ShareBound {
  attribute: string;
  value: string;
  min?: number;
  max?: number;
}

export type ShareGuardrailResult = ShareBound & {
  arm: string;
  control: number | null;
  share: Figure | null;
  state: "ok" | "at risk" | "failing";
  reason?: string;
};

/**
 * Each share guardrail for each non-control arm, by where the arm's interval lies against the bound:
 * ok when all of it meets the bound, failing when all of it breaks it, at risk otherwise (as the other
 * guardrails read their intervals). A group that is not shown ("fewer than 5") or has no interval is at risk.
 */
export function shareGuardrails(
  composition: AdoptedComposition,
  bounds: readonly ShareBound[],
): ShareGuardrailResult[] {
  const arms = composition.arms.filter((a) => a !== composition.control);
  return arms.flatMap((arm) =>
    bounds.map((b): ShareGuardrailResult => {
      const group = composition.attributes[b.attribute]?.groups[b.value];
      const share = group?.arms?.[arm] ?? null;
      const base = { ...b, arm, control: group?.arms?.[composition.control]?.value ?? null, share };
      if (!composition.attributes[b.attribute])
        return { ...base, state: "at risk", reason: `no candidate has the attribute ${b.attribute}` };
      if (!group)
        return { ...base, state: "at risk", reason: `no candidate has ${b.attribute} = ${b.value}` };
      if (group.suppressed) return { ...base, state: "at risk", reason: `the group has ${group.suppressed}` };
      if (!share?.ci) return { ...base, state: "at risk", reason: "no adopted candidates in this arm yet" };
      const { lower, upper } = share.ci;
      const min = b.min ?? -Infinity;
      const max = b.max ?? Infinity;
      if (upper < min || lower > max) return { ...base, state: "failing" };
      if (lower >= min && upper <= max) return { ...base, state: "ok" };
      return { ...base, state: "at risk" };
    }),
  );
}
