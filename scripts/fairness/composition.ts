import { bootstrapStatistics, type BootstrapOptions } from "../stats/bootstrap";
import { DEFAULT_MIN_GROUP, pooled, type Figure } from "./report";

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
