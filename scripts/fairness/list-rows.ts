import { jensenShannon } from "./awrf";
import { alphaNdcg, subtopicRecall, type Aspects } from "./diversity";
import { CUT_STEP, rankFairnessAtCuts, rankMeasures } from "./rank-fairness";
import { dcgWeight } from "./representation";
import { addUndefined, addValue, type SparseRows } from "./rows";

/**
 * Every figure of one list as entries of a row (rows.ts), all groups of an attribute counted in one
 * pass over the list instead of one pass per group and measure. Each figure is the same floating-point
 * number the per-group functions (shareAt, exposureAt, meanExposure, rankFairness, awrf) give: the same
 * terms, added in rank order.
 */

/** One attribute's pool: its values in the pool's order (the order AWRF sums its distributions in). */
export interface AttributePool {
  name: string;
  groups: readonly string[];
  /** candidate (by its number, ListInput) → index in `groups` */
  groupOf: Int32Array;
  /** each group's share of the pool (AWRF's target, and "majority" for rRD) */
  share: readonly number[];
  /** false for a group under the minimum size: it gets no column */
  shown: readonly boolean[];
}

interface GroupColumns {
  committees: number;
  exposure: number;
  merit: number;
  share: number[];
  exposureAt: number[];
  meanExposure: number;
  rank: number[];
}

export interface Layout {
  /** Each column's key: attribute \u0000 group \u0000 measure; a measure starting with "_" is a sum behind another figure. */
  keys: string[];
  /** The column whose lists (those where it is defined) weigh this column's mean; -1: every list. */
  weightOf: number[];
  attributes: { awrf: number[]; groups: (GroupColumns | null)[] }[];
  /** Undefined on the lists without a committee, where the committees' shares are undefined; -1 without committees. */
  hasCommittee: number;
  /** The whole list's DCG weight and merit, behind exposure per merit; -1 without merit. */
  allExposure: number;
  allMerit: number;
  diversity: { alpha: number[]; strec: number[] } | null;
}

/** The columns, in the order the figures are reported. */
export function layout(
  pools: readonly AttributePool[],
  ks: readonly number[],
  options: { committees: boolean; merit: boolean; diversity: boolean },
): Layout {
  const keys: string[] = [];
  const weightOf: number[] = [];
  const add = (key: string, weight: "all" | "self" | number) => {
    keys.push(key);
    weightOf.push(weight === "all" ? -1 : weight === "self" ? keys.length - 1 : weight);
    return keys.length - 1;
  };
  const hasCommittee = options.committees ? add("\u0000\u0000_committee", "all") : -1;
  const allExposure = options.merit ? add("\u0000\u0000_allExposure", "all") : -1;
  const allMerit = options.merit ? add("\u0000\u0000_allMerit", "all") : -1;
  const attributes = pools.map((pool) => ({
    awrf: ks.map((k) => add(`${pool.name}\u0000\u0000AWRF@${k}`, "all")),
    groups: pool.groups.map((group, g) => {
      if (!pool.shown[g]) return null;
      const key = (measure: string) => `${pool.name}\u0000${group}\u0000${measure}`;
      const committees = options.committees ? add(key("committees"), hasCommittee) : -1;
      const exposure = options.merit ? add(key("_exposure"), "all") : -1;
      const merit = options.merit ? add(key("_merit"), "all") : -1;
      const share: number[] = [];
      const exposureAt: number[] = [];
      for (const k of ks) {
        share.push(add(key(`share@${k}`), "all"));
        exposureAt.push(add(key(`exposure@${k}`), "all"));
      }
      const meanExposure = add(key("meanExposure"), "self");
      const rank = rankMeasures.map((m) => add(key(m), "self"));
      return { committees, exposure, merit, share, exposureAt, meanExposure, rank };
    }),
  }));
  const diversity = options.diversity ? { alpha: [] as number[], strec: [] as number[] } : null;
  for (const k of diversity ? ks : []) {
    diversity!.alpha.push(add(`\u0000\u0000alpha-nDCG@${k}`, "all"));
    diversity!.strec.push(add(`\u0000\u0000strec@${k}`, "all"));
  }
  return { keys, weightOf, attributes, hasCommittee, allExposure, allMerit, diversity };
}

/** DCG weights 1 / log2(r + 1) and AWRF's 1 / log2(max(r, 2)), by 0-based rank, grown as lists need. */
const dcg: number[] = [];
const attention: number[] = [];
function weightsUpTo(n: number) {
  for (let r = dcg.length; r < n; r++) {
    dcg.push(dcgWeight(r + 1));
    attention.push(1 / Math.log2(Math.max(r + 1, 2)));
  }
}

/** Per-attribute counters, reused from list to list. */
interface Scratch {
  group: Int32Array;
  count: Float64Array;
  exposure: Float64Array;
  merit: Float64Array;
  present: Int32Array;
  presentCount: number;
  atCuts: Int32Array;
  topCount: Float64Array;
  topExposure: Float64Array;
  topAttention: Float64Array;
  attention: Float64Array;
  committee: Float64Array;
}

export function scratch(pool: AttributePool): Scratch {
  const g = pool.groups.length;
  const zeros = () => new Float64Array(g);
  return {
    group: new Int32Array(0),
    count: zeros(),
    exposure: zeros(),
    merit: zeros(),
    present: new Int32Array(g),
    presentCount: 0,
    atCuts: new Int32Array(0),
    topCount: zeros(),
    topExposure: zeros(),
    topAttention: zeros(),
    attention: zeros(),
    committee: zeros(),
  };
}

/** One list as the rows need it: its candidates, their merit (or null), the proposal's committee. */
export interface ListInput {
  order: readonly string[];
  /** The candidates' numbers, rank by rank (AttributePool.groupOf). */
  ids: Int32Array;
  merit: Float64Array | null;
  /** The committee's candidates' numbers; empty for a proposal without one. */
  committee: Int32Array | null;
  judged: Aspects | null;
}

/**
 * Counts, DCG weight and merit of each group over the whole list, and its protected count at each
 * cut-off 10, 20, … (rND/rKL/rRD): the groups present are listed in `present`.
 */
function countWhole(s: Scratch, pool: AttributePool, list: ListInput) {
  const n = list.order.length;
  for (let q = 0; q < s.presentCount; q++) {
    const g = s.present[q];
    s.count[g] = 0;
    s.exposure[g] = 0;
    s.merit[g] = 0;
  }
  s.presentCount = 0;
  if (s.group.length < n) s.group = new Int32Array(n);
  const cuts = Math.floor(n / CUT_STEP);
  if (s.atCuts.length < cuts * pool.groups.length) s.atCuts = new Int32Array(cuts * pool.groups.length);
  for (let r = 0, t = 0; r < n; r++) {
    const g = pool.groupOf[list.ids[r]];
    s.group[r] = g;
    if (s.count[g] === 0) {
      s.present[s.presentCount++] = g;
      s.atCuts.fill(0, g * cuts, (g + 1) * cuts);
    }
    s.count[g]++;
    s.exposure[g] += dcg[r];
    if (list.merit) s.merit[g] += list.merit[r];
    if ((r + 1) % CUT_STEP === 0) {
      for (let q = 0; q < s.presentCount; q++) s.atCuts[s.present[q] * cuts + t] = s.count[s.present[q]];
      t++;
    }
  }
}

/** share@K, exposure@K and AWRF@K of every group from one pass over the top K. */
function topK(
  rows: SparseRows,
  s: Scratch,
  pool: AttributePool,
  columns: Layout["attributes"][number],
  n: number,
  ks: readonly number[],
) {
  ks.forEach((k, j) => {
    s.topCount.fill(0);
    s.topExposure.fill(0);
    s.topAttention.fill(0);
    let all = 0;
    let total = 0;
    for (let r = 0; r < Math.min(k, n); r++) {
      const g = s.group[r];
      s.topCount[g]++;
      s.topExposure[g] += dcg[r];
      all += dcg[r];
      s.topAttention[g] += attention[r];
      total += attention[r];
    }
    for (let g = 0; g < pool.groups.length; g++) s.attention[g] = total > 0 ? s.topAttention[g] / total : 0;
    const fairness = 1 - jensenShannon(s.attention, pool.share);
    addValue(rows, columns.awrf[j], fairness);
    for (let q = 0; q < s.presentCount; q++) {
      const g = s.present[q];
      const at = columns.groups[g];
      if (!at || s.topCount[g] === 0) continue;
      addValue(rows, at.share[j], s.topCount[g] / k);
      if (all > 0) addValue(rows, at.exposureAt[j], s.topExposure[g] / all);
    }
  });
}

/** Mean exposure, exposure and merit sums, rND/rKL/rRD of each group (undefined where it is absent). */
function wholeListFigures(
  rows: SparseRows,
  s: Scratch,
  pool: AttributePool,
  columns: Layout["attributes"][number],
  n: number,
) {
  const cuts = Math.floor(n / CUT_STEP);
  columns.groups.forEach((at, g) => {
    if (!at) return;
    if (s.count[g] === 0) {
      addUndefined(rows, at.meanExposure);
      for (const column of at.rank) addUndefined(rows, column);
      return;
    }
    addValue(rows, at.meanExposure, s.exposure[g] / s.count[g]);
    if (at.exposure >= 0) {
      addValue(rows, at.exposure, s.exposure[g]);
      addValue(rows, at.merit, s.merit[g]);
    }
    const majority = pool.share[g] > 0.5;
    rankMeasures.forEach((m, j) => {
      const value = rankFairnessAtCuts(m, n, s.count[g], s.atCuts, g * cuts, majority);
      if (value === null) addUndefined(rows, at.rank[j]);
      else addValue(rows, at.rank[j], value);
    });
  });
}

function committeeShares(
  rows: SparseRows,
  s: Scratch,
  pool: AttributePool,
  columns: Layout["attributes"][number],
  committee: Int32Array,
) {
  for (const c of committee) s.committee[pool.groupOf[c]]++;
  columns.groups.forEach((at, g) => {
    if (at) addValue(rows, at.committees, s.committee[g] / committee.length);
    s.committee[g] = 0;
  });
}

/** Writes one list's entries into the row being written (the caller ends the row). */
export function writeList(
  rows: SparseRows,
  plan: Layout,
  pools: readonly AttributePool[],
  scratches: readonly Scratch[],
  list: ListInput,
  ks: readonly number[],
) {
  const n = list.order.length;
  weightsUpTo(n);
  if (plan.hasCommittee >= 0 && !list.committee?.length) addUndefined(rows, plan.hasCommittee);
  if (list.merit) {
    let allExposure = 0;
    let allMerit = 0;
    for (let r = 0; r < n; r++) {
      allExposure += dcg[r];
      allMerit += list.merit[r];
    }
    addValue(rows, plan.allExposure, allExposure);
    addValue(rows, plan.allMerit, allMerit);
  }
  pools.forEach((pool, a) => {
    const s = scratches[a];
    const columns = plan.attributes[a];
    countWhole(s, pool, list);
    topK(rows, s, pool, columns, n, ks);
    wholeListFigures(rows, s, pool, columns, n);
    if (list.committee?.length) committeeShares(rows, s, pool, columns, list.committee);
  });
  if (plan.diversity && list.judged) {
    ks.forEach((k, j) => {
      const alpha = alphaNdcg(list.order, list.judged!, k);
      const recall = subtopicRecall(list.order, list.judged!, k);
      addValue(rows, plan.diversity!.alpha[j], alpha);
      addValue(rows, plan.diversity!.strec[j], recall);
    });
  }
}
