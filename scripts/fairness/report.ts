import { bootstrapStatistics, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { awrf } from "./awrf";
import { alphaNdcg, subtopicRecall, type Aspects } from "./diversity";
import { rankFairness, rankMeasures } from "./rank-fairness";
import { exposureAt, meanExposure, shareAt } from "./representation";

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

function attributeColumns(
  columns: Columns,
  name: string,
  valueAt: readonly string[],
  counts: ReadonlyMap<string, number>,
  target: ReadonlyMap<string, number>,
  ks: readonly number[],
) {
  for (const k of ks) push(columns, `${name}\u0000\u0000AWRF@${k}`, awrf(valueAt, k, target));
  for (const group of counts.keys()) {
    const inGroup = valueAt.map((v) => v === group);
    const key = (measure: string) => `${name}\u0000${group}\u0000${measure}`;
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

/** Means over the defined values and their CIs, all from the same resamples of proposals. */
function summarise(columns: Columns, n: number, options: BootstrapOptions): Map<string, Figure> {
  const keys = [...columns.keys()];
  const data = keys.map((k) => columns.get(k)!);
  const mean = (counts: Uint32Array | null, column: (number | null)[]) => {
    let sum = 0;
    let weight = 0;
    column.forEach((v, i) => {
      if (v === null) return;
      const w = counts ? counts[i] : 1;
      sum += w * v;
      weight += w;
    });
    return weight > 0 ? sum / weight : null;
  };
  const cis = bootstrapStatistics(n, (counts) => data.map((c) => mean(counts, c)), keys.length, options);
  return new Map(
    keys.map((key, j) => [
      key,
      { value: mean(null, data[j]), ci: cis[j], lists: data[j].filter((v) => v !== null).length },
    ]),
  );
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
 * Representation, exposure, rank fairness (rND, rKL, rRD), AWRF and diversity of each system's lists,
 * each the mean over the system's lists with a bootstrap CI over proposals. Candidates without a value
 * for an attribute count as "unknown"; lists' candidates outside the pool join the pool as such.
 */
export function fairnessReport(input: FairnessInput): Record<string, SystemFairness> {
  const attributes = new Map(
    [...input.attributes].map(([name, values]) => {
      const all = new Map(values);
      for (const lists of input.lists.values())
        for (const list of lists.values()) for (const c of list) if (!all.has(c)) all.set(c, UNKNOWN);
      return [name, all] as const;
    }),
  );
  const whole = { ...input, attributes };
  const pools = new Map(
    [...attributes].map(([name, values]) => {
      const counts = pool(values);
      return [name, { counts, target: new Map([...counts].map(([v, c]) => [v, c / values.size])) }];
    }),
  );
  const report: Record<string, SystemFairness> = {};
  for (const [system, lists] of input.lists) {
    const columns: Columns = new Map();
    for (const [proposal, order] of lists) {
      for (const [name, values] of attributes) {
        const { counts, target } = pools.get(name)!;
        attributeColumns(
          columns,
          name,
          order.map((c) => values.get(c)!),
          counts,
          target,
          input.ks,
        );
      }
      if (input.aspects) diversityColumns(columns, order, input.aspects.get(proposal) ?? new Map(), input.ks);
    }
    report[system] = assemble(summarise(columns, lists.size, input.bootstrap ?? {}), whole, lists.size);
  }
  return report;
}
