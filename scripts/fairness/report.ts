import { bootstrapStatistics, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { awrf } from "./awrf";
import { alphaNdcg, subtopicRecall, type Aspects } from "./diversity";
import { rankFairness, rankMeasures } from "./rank-fairness";
import { dcgWeight, exposureAt, meanExposure, shareAt } from "./representation";

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

/** Each column: one value (or null) per list, in the system's proposal order. */
type Columns = Map<string, (number | null)[]>;

function pool(values: ReadonlyMap<string, string>) {
  const counts = new Map<string, number>();
  for (const v of values.values()) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function push(columns: Columns, key: string, value: number | null) {
  const column = columns.get(key) ?? [];
  column.push(value);
  columns.set(key, column);
}

/** One list as one attribute sees it: each rank's value, whether it is a committee member, the committee's values. */
interface ListView {
  valueAt: readonly string[];
  merit: readonly number[] | null;
  committee: readonly string[] | null;
}

/** Column names starting with this are sums for derived figures, never shown themselves. */
const SUM = "_";

/**
 * Sums behind exposure per unit of merit (Singh & Joachims 2018): the DCG weight and the merit
 * (relevance grade when given, else committee membership) of the group's members in the list, and of the whole list.
 */
function meritColumns(columns: Columns, name: string, group: string, view: ListView) {
  let exposure = 0;
  let merit = 0;
  let allExposure = 0;
  let allMerit = 0;
  view.valueAt.forEach((v, r) => {
    const w = dcgWeight(r + 1);
    allExposure += w;
    allMerit += view.merit![r];
    if (v !== group) return;
    exposure += w;
    merit += view.merit![r];
  });
  const key = (measure: string) => `${name}\u0000${group}\u0000${SUM}${measure}`;
  push(columns, key("exposure"), exposure);
  push(columns, key("merit"), merit);
  push(columns, key("allExposure"), allExposure);
  push(columns, key("allMerit"), allMerit);
}

function committeeShare(committee: readonly string[], group: string) {
  return committee.length ? committee.filter((v) => v === group).length / committee.length : null;
}

function attributeColumns(
  columns: Columns,
  name: string,
  view: ListView,
  groups: readonly string[],
  target: ReadonlyMap<string, number>,
  ks: readonly number[],
) {
  const { valueAt } = view;
  for (const k of ks) push(columns, `${name}\u0000\u0000AWRF@${k}`, awrf(valueAt, k, target));
  for (const group of groups) {
    const inGroup = valueAt.map((v) => v === group);
    const key = (measure: string) => `${name}\u0000${group}\u0000${measure}`;
    if (view.committee) push(columns, key("committees"), committeeShare(view.committee, group));
    if (view.merit) meritColumns(columns, name, group, view);
    for (const k of ks) {
      push(columns, key(`share@${k}`), shareAt(inGroup, k));
      push(columns, key(`exposure@${k}`), exposureAt(inGroup, k));
    }
    push(columns, key("meanExposure"), meanExposure(inGroup));
    const majority = target.get(group)! > 0.5;
    for (const m of rankMeasures) push(columns, key(m), rankFairness(m, inGroup, majority));
  }
}

function diversityColumns(
  columns: Columns,
  order: readonly string[],
  judged: Aspects,
  ks: readonly number[],
) {
  for (const k of ks) {
    push(columns, `\u0000\u0000alpha-nDCG@${k}`, alphaNdcg(order, judged, k));
    push(columns, `\u0000\u0000strec@${k}`, subtopicRecall(order, judged, k));
  }
}

/** The exposure a group gets per unit of merit, and that over the rest of the list's (1 = parity). */
function meritFigures(mean: (key: string) => number | null, prefix: string) {
  const [exposure, merit, allExposure, allMerit] = ["exposure", "merit", "allExposure", "allMerit"].map(
    (m) => mean(`${prefix}${SUM}${m}`) ?? 0,
  );
  const perMerit = merit > 0 ? exposure / merit : null;
  const rest = allMerit - merit > 0 ? (allExposure - exposure) / (allMerit - merit) : null;
  return [perMerit, perMerit !== null && rest ? perMerit / rest : null];
}

/**
 * Means over the defined values and their CIs, all from the same resamples of proposals; a group with
 * merit sums also gets its exposure per unit of merit, a ratio of sums over the resampled proposals.
 */
function summarise(columns: Columns, n: number, options: BootstrapOptions): Map<string, Figure> {
  const keys = [...columns.keys()];
  const data = keys.map((k) => columns.get(k)!);
  const shown = keys.flatMap((k, j) => (k.split("\u0000")[2].startsWith(SUM) ? [] : [j]));
  const index = new Map(keys.map((k, j) => [k, j]));
  const tail = `${SUM}allMerit`;
  const meritGroups = keys.flatMap((k) => (k.endsWith(tail) ? [k.slice(0, -tail.length)] : []));
  // Columns as typed arrays, NaN for an undefined value: the resample loop below runs B × n × columns times.
  const typed = data.map((c) => Float64Array.from(c, (v) => (v === null ? NaN : v)));
  const ones = new Uint32Array(n).fill(1);
  const mean = (counts: Uint32Array | null, column: Float64Array) => {
    const w = counts ?? ones;
    let sum = 0;
    let weight = 0;
    for (let i = 0; i < column.length; i++) {
      const v = column[i];
      if (w[i] === 0 || v !== v) continue;
      sum += w[i] * v;
      weight += w[i];
    }
    return weight > 0 ? sum / weight : null;
  };
  const statistics = (counts: Uint32Array | null) => {
    const means = typed.map((c) => mean(counts, c));
    const byKey = (key: string) => means[index.get(key)!];
    return [...shown.map((j) => means[j]), ...meritGroups.flatMap((g) => meritFigures(byKey, g))];
  };
  const names = [
    ...shown.map((j) => keys[j]),
    ...meritGroups.flatMap((g) => [`${g}exposurePerMerit`, `${g}exposurePerMeritRatio`]),
  ];
  const counted = [
    ...shown.map((j) => data[j].filter((v) => v !== null).length),
    ...meritGroups.flatMap(() => [n, n]),
  ];
  const values = statistics(null);
  const cis = bootstrapStatistics(n, statistics, names.length, options);
  return new Map(names.map((key, j) => [key, { value: values[j], ci: cis[j], lists: counted[j] }]));
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
 * Representation, exposure, rank fairness (rND, rKL, rRD), AWRF and diversity of each system's lists,
 * each the mean over the system's lists with a bootstrap CI over proposals. Candidates without a value
 * for an attribute count as "unknown"; lists' candidates outside the pool join the pool as such.
 */
export function fairnessReport(input: FairnessInput): Record<string, SystemFairness> {
  const attributes = pooled(input);
  const whole = { ...input, attributes };
  const pools = new Map(
    [...attributes].map(([name, values]) => {
      const counts = pool(values);
      // Groups under the minimum get no figure, so none is computed (AWRF still sees every value).
      const groups = [...counts.keys()].filter(
        (g) => counts.get(g)! >= (input.minGroup ?? DEFAULT_MIN_GROUP),
      );
      return [name, { groups, target: new Map([...counts].map(([v, c]) => [v, c / values.size])) }];
    }),
  );
  const report: Record<string, SystemFairness> = {};
  for (const [system, lists] of input.lists) {
    const columns: Columns = new Map();
    for (const [proposal, order] of lists) {
      const committee = input.committees?.get(proposal) ?? null;
      const members = input.committees ? new Set(committee) : null;
      const grades = input.merit ? (input.merit.get(proposal) ?? new Map<string, number>()) : null;
      for (const [name, values] of attributes) {
        const { groups, target } = pools.get(name)!;
        const view: ListView = {
          valueAt: order.map((c) => values.get(c)!),
          merit: grades
            ? order.map((c) => Math.max(0, grades.get(c) ?? 0))
            : members
              ? order.map((c) => (members.has(c) ? 1 : 0))
              : null,
          committee: committee ? committee.map((c) => values.get(c)!) : input.committees ? [] : null,
        };
        attributeColumns(columns, name, view, groups, target, input.ks);
      }
      if (input.aspects) diversityColumns(columns, order, input.aspects.get(proposal) ?? new Map(), input.ks);
    }
    report[system] = assemble(summarise(columns, lists.size, input.bootstrap ?? {}), whole, lists.size);
  }
  return report;
}
