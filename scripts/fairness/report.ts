import { bootstrapStatisticsInBlocks, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { type Aspects } from "./diversity";
import { layout, scratch, writeList, type AttributePool, type Layout } from "./list-rows";
import { accumulate, BLOCK, byColumn, endRow, sparseRows, type SparseRows } from "./rows";

/** The value a candidate without a row for an attribute gets: a group of its own, never dropped. */
export const UNKNOWN = "unknown";
/** Groups with fewer members in the pool are never shown (their figures could single people out). */
export const DEFAULT_MIN_GROUP = 5;

export interface FairnessInput {
  /** system → proposal → candidate ids in rank order */
  lists: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  /** attribute → candidate → value; the candidates named here are the pool */
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** proposal → judged candidate → the proposal's aspects it covers (subtopic qrels), for diversity */
  aspects?: ReadonlyMap<string, Aspects>;
  /** proposal → its committee (gold members): their groups' shares, and the merit for exposure per merit */
  committees?: ReadonlyMap<string, readonly string[]>;
  /** proposal → candidate → relevance grade: the merit for exposure per merit instead of membership */
  merit?: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** attribute → value → the share the analyst expects (0–1), shown beside the measured shares */
  targets?: ReadonlyMap<string, ReadonlyMap<string, number>>;
  ks: readonly number[];
  minGroup?: number;
  bootstrap?: BootstrapOptions;
}

/** A mean over lists (those where the measure is defined) with its bootstrap CI over proposals. */
export interface Figure {
  value: number | null;
  ci: Interval | null;
  lists: number;
}

export interface GroupFigures {
  poolSize: number;
  poolShare: number;
  /** The analyst's expected share, when one was set. */
  target?: number;
  /** Set when the group is smaller than the minimum: then no figure is given. */
  suppressed?: string;
  figures: Record<string, Figure>;
}

export interface AttributeFigures {
  groups: Record<string, GroupFigures>;
  figures: Record<string, Figure>;
}

export interface SystemFairness {
  proposals: number;
  attributes: Record<string, AttributeFigures>;
  diversity: Record<string, Figure> | null;
}

function pool(values: ReadonlyMap<string, string>) {
  const counts = new Map<string, number>();
  for (const v of values.values()) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/** Column names starting with this are sums for derived figures, never shown themselves. */
const SUM = "_";

/** The exposure a group gets per unit of merit, and that over the rest of the list's (1 = parity). */
function meritFigures(exposure: number, merit: number, allExposure: number, allMerit: number) {
  const perMerit = merit > 0 ? exposure / merit : null;
  const rest = allMerit - merit > 0 ? (allExposure - exposure) / (allMerit - merit) : null;
  return [perMerit, perMerit !== null && rest ? perMerit / rest : null];
}

/**
 * Means over the defined values and their CIs, all from the same resamples of proposals; a group with
 * merit sums also gets its exposure per unit of merit, a ratio of sums over the resampled proposals.
 * Each pass over the values serves BLOCK resamples (rows.ts); the means are the same numbers, bit for
 * bit, as a mean per column over the proposals in order.
 */
function summarise(rows: SparseRows, plan: Layout, options: BootstrapOptions): Map<string, Figure> {
  const n = rows.length;
  const m = plan.keys.length;
  const shown = plan.keys.flatMap((k, j) => (k.split("\u0000")[2].startsWith(SUM) ? [] : [j]));
  const meritGroups = plan.attributes.flatMap((a) =>
    a.groups.flatMap((g) => (g && g.exposure >= 0 ? [g] : [])),
  );
  const entries = byColumn(rows.values, n, m);
  const marks = byColumn(rows.undefinedAt, n, m);
  const lists = (j: number) => n - (marks.start[j + 1] - marks.start[j]);
  const counted = new Float64Array(n * BLOCK);
  const sums = new Float64Array(m * BLOCK);
  const missing = new Float64Array(m * BLOCK);
  const statistics = (counts: readonly Uint32Array[]) => {
    counted.fill(0);
    counts.forEach((c, q) => {
      for (let i = 0; i < n; i++) counted[i * BLOCK + q] = c[i];
    });
    accumulate(entries, counted, sums);
    accumulate(marks, counted, missing);
    return counts.map((_, q) => {
      const mean = (j: number) => {
        const weight = plan.weightOf[j] < 0 ? n : n - missing[plan.weightOf[j] * BLOCK + q];
        return weight > 0 ? sums[j * BLOCK + q] / weight : null;
      };
      const [allExposure, allMerit] = [plan.allExposure, plan.allMerit].map((j) => (j < 0 ? 0 : mean(j)!));
      return [
        ...shown.map(mean),
        ...meritGroups.flatMap((g) => meritFigures(mean(g.exposure)!, mean(g.merit)!, allExposure, allMerit)),
      ];
    });
  };
  // A group's merit columns are keyed attribute \u0000 group \u0000 _exposure: its figures take the same prefix.
  const prefix = (j: number) => plan.keys[j].slice(0, -`${SUM}exposure`.length);
  const names = [
    ...shown.map((j) => plan.keys[j]),
    ...meritGroups.flatMap((g) => [
      `${prefix(g.exposure)}exposurePerMerit`,
      `${prefix(g.exposure)}exposurePerMeritRatio`,
    ]),
  ];
  const listsOf = [
    ...shown.map((j) => (plan.weightOf[j] < 0 ? n : lists(plan.weightOf[j]))),
    ...meritGroups.flatMap(() => [n, n]),
  ];
  const [pointEstimates] = statistics([new Uint32Array(n).fill(1)]);
  const cis = bootstrapStatisticsInBlocks(n, statistics, names.length, BLOCK, options);
  return new Map(names.map((key, j) => [key, { value: pointEstimates[j], ci: cis[j], lists: listsOf[j] }]));
}

function assemble(figures: Map<string, Figure>, input: FairnessInput, n: number): SystemFairness {
  const minGroup = input.minGroup ?? DEFAULT_MIN_GROUP;
  const out: SystemFairness = { proposals: n, attributes: {}, diversity: input.aspects ? {} : null };
  for (const [name, values] of input.attributes) {
    const counts = pool(values);
    const size = values.size;
    const attribute: AttributeFigures = { groups: {}, figures: {} };
    for (const [group, count] of counts) {
      const g: GroupFigures = { poolSize: count, poolShare: count / size, figures: {} };
      const target = input.targets?.get(name)?.get(group);
      if (target !== undefined) g.target = target;
      if (count < minGroup) g.suppressed = `fewer than ${minGroup}`;
      attribute.groups[group] = g;
    }
    out.attributes[name] = attribute;
  }
  for (const [key, figure] of figures) {
    const [name, group, measure] = key.split("\u0000");
    if (name === "") out.diversity![measure] = figure;
    else if (group === "") out.attributes[name].figures[measure] = figure;
    else if (!out.attributes[name].groups[group].suppressed)
      out.attributes[name].groups[group].figures[measure] = figure;
  }
  return out;
}

/**
 * The pool of each attribute: the attributes' candidates, and those of the lists and committees without
 * a value as "unknown". Reports on a part of the lists (one subject's) pass the whole input's pool.
 */
export function pooled(input: FairnessInput): Map<string, Map<string, string>> {
  const everyone = [...input.lists.values()].flatMap((lists) => [...lists.values()].flat());
  for (const committee of input.committees?.values() ?? []) everyone.push(...committee);
  return new Map(
    [...input.attributes].map(([name, values]) => {
      const all = new Map(values);
      for (const c of everyone) if (!all.has(c)) all.set(c, UNKNOWN);
      return [name, all] as const;
    }),
  );
}

/**
 * Each attribute's groups in the pool's order; groups under the minimum are counted but get no column.
 * Candidates are numbered (`ids`) so a list's groups are read from arrays, not looked up by name.
 */
function attributePools(attributes: Map<string, Map<string, string>>, minGroup: number) {
  const ids = new Map<string, number>();
  for (const values of attributes.values())
    for (const c of values.keys()) if (!ids.has(c)) ids.set(c, ids.size);
  const pools: AttributePool[] = [...attributes].map(([name, values]) => {
    const counts = pool(values);
    const groups = [...counts.keys()];
    const index = new Map(groups.map((g, i) => [g, i]));
    const groupOf = new Int32Array(ids.size);
    for (const [candidate, value] of values) groupOf[ids.get(candidate)!] = index.get(value)!;
    return {
      name,
      groups,
      groupOf,
      share: groups.map((g) => counts.get(g)! / values.size),
      shown: groups.map((g) => counts.get(g)! >= minGroup),
    };
  });
  return { ids, pools };
}

/** Each list's rows: its merit per rank (a grade, else committee membership) and its committee. */
function systemRows(
  input: FairnessInput,
  lists: ReadonlyMap<string, readonly string[]>,
  { ids, pools }: ReturnType<typeof attributePools>,
) {
  const plan = layout(pools, input.ks, {
    committees: !!input.committees,
    merit: !!(input.merit || input.committees),
    diversity: !!input.aspects,
  });
  const rows = sparseRows(lists.size);
  const scratches = pools.map(scratch);
  const number = (c: string) => ids.get(c)!;
  for (const [proposal, order] of lists) {
    const members = input.committees ? (input.committees.get(proposal) ?? []) : null;
    const committee = members ? Int32Array.from(members, number) : null;
    const grades = input.merit ? (input.merit.get(proposal) ?? new Map<string, number>()) : null;
    const isMember = new Set(members);
    const merit = grades
      ? Float64Array.from(order, (c) => Math.max(0, grades.get(c) ?? 0))
      : members
        ? Float64Array.from(order, (c) => (isMember.has(c) ? 1 : 0))
        : null;
    const judged = input.aspects ? (input.aspects.get(proposal) ?? new Map()) : null;
    writeList(
      rows,
      plan,
      pools,
      scratches,
      { order, ids: Int32Array.from(order, number), merit, committee, judged },
      input.ks,
    );
    endRow(rows);
  }
  return { rows, plan };
}

/**
 * Representation, exposure, rank fairness (rND, rKL, rRD), AWRF and diversity of each system's lists,
 * each the mean over the system's lists with a bootstrap CI over proposals. Candidates without a value
 * for an attribute count as "unknown"; lists' candidates outside the pool join the pool as such.
 */
export function fairnessReport(input: FairnessInput): Record<string, SystemFairness> {
  const attributes = pooled(input);
  const whole = { ...input, attributes };
  const pools = attributePools(attributes, input.minGroup ?? DEFAULT_MIN_GROUP);
  const report: Record<string, SystemFairness> = {};
  for (const [system, lists] of input.lists) {
    const { rows, plan } = systemRows(input, lists, pools);
    report[system] = assemble(summarise(rows, plan, input.bootstrap ?? {}), whole, lists.size);
  }
  return report;
}
