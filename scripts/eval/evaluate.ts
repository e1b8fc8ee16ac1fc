import { grow } from "../lib/grow";
import type { Measure } from "./measures";
import {
  averagePrecision,
  halfLifeParts,
  judgedAt,
  ndcg,
  precision,
  rankOfNth,
  recall,
  reciprocalRank,
  success,
  type Labels,
} from "./ranking";
import { cutLabels, isTrecBacked, trecBackedValue } from "./trec-backed";

/** One query to evaluate: its ranked labels (NaN = unjudged) and all its judged labels, sorted descending. */
export interface QueryInput {
  qid: string;
  ranked: Labels;
  judged: Labels;
  /** Candidate ids by rank; needed only for Coverage@K. */
  items?: readonly string[];
}

/**
 * How a measure's per-query values combine:
 *  - mean: macro average over queries;
 *  - present-mean: mean over queries with a value (Rank(g): queries with fewer than g relevant items
 *    retrieved have none and are counted apart);
 *  - ratio: Σ values / Σ weights (HLU: 100 · Σ num / Σ den);
 *  - corpus: a value of the whole query set (Coverage@K), not per query;
 *  - sum: a total over queries (NumRel, NumRet, trec_eval's num_* measures);
 *  - geometric: geometric mean of max(value, 0.00001) (trec_eval's gm_map and gm_bpref).
 */
export type Aggregation = "mean" | "present-mean" | "ratio" | "corpus" | "sum" | "geometric";

/** trec_eval's floor for a geometric mean (MIN_GEO_MEAN). */
const MIN_GEO_MEAN = 0.00001;

export interface MeasureColumn {
  measure: Measure;
  aggregation: Aggregation;
  /** Per query; NaN where a query has no value. For ratio columns, the numerators. */
  values: Float64Array;
  /** Ratio columns only: the denominators. */
  weights?: Float64Array;
  /** Corpus columns only: the whole-set value. */
  corpusValue?: number;
}

export interface Evaluation {
  qids: string[];
  columns: MeasureColumn[];
}

export function aggregationOf(measure: Measure): Aggregation {
  if (
    measure.kind === "NumQ" ||
    measure.kind === "NumRel" ||
    measure.kind === "NumRet" ||
    measure.kind === "NumRelRet"
  )
    return "sum";
  if (measure.kind === "Trec") {
    const family = measure.trec!.family;
    if (family === "gm_map" || family === "gm_bpref") return "geometric";
    if (family === "num_nonrel_judged_ret") return "sum";
  }
  return measure.kind === "Rank"
    ? "present-mean"
    : measure.kind === "HLU"
      ? "ratio"
      : measure.kind === "Coverage"
        ? "corpus"
        : "mean";
}

export function evaluateQueries(
  queries: readonly QueryInput[],
  measures: readonly Measure[],
  options: { catalog?: ReadonlySet<string> } = {},
): Evaluation {
  const builder = new EvaluationBuilder(measures, queries.length);
  for (const { qid, ranked, judged } of queries) builder.add(qid, ranked, judged);
  const evaluation = builder.build();
  for (const column of evaluation.columns)
    if (column.aggregation === "corpus")
      column.corpusValue = coverage(queries, column.measure.k!, options.catalog);
  return evaluation;
}

/**
 * Per-query values added one query at a time, so a caller reading a large run piece by piece never
 * holds every list at once. Corpus measures (Coverage@K) are left NaN for the caller to fill in.
 */
export class EvaluationBuilder {
  private readonly qids: string[] = [];
  private readonly aggregations: Aggregation[];
  private values: Float64Array[];
  private weights: (Float64Array | undefined)[];

  constructor(
    private readonly measures: readonly Measure[],
    capacity = 1024,
  ) {
    this.aggregations = measures.map(aggregationOf);
    this.values = measures.map(() => new Float64Array(Math.max(1, capacity)));
    this.weights = this.aggregations.map((a) =>
      a === "ratio" ? new Float64Array(Math.max(1, capacity)) : undefined,
    );
  }

  add(qid: string, ranked: Labels, judged: Labels): void {
    const q = this.qids.length;
    if (q === this.values[0]?.length) {
      this.values = this.values.map((v) => grow(v, q * 2));
      this.weights = this.weights.map((w) => w && grow(w, q * 2));
    }
    this.qids.push(qid);
    this.measures.forEach((measure, m) => {
      if (this.aggregations[m] === "corpus") this.values[m][q] = NaN;
      else if (measure.kind === "HLU") {
        const parts = halfLifeParts(
          measure.judgedOnly || measure.depth !== undefined ? cutLabels(measure, ranked) : ranked,
          judged,
          measure.a,
          measure.rel,
        );
        this.values[m][q] = 100 * parts.num;
        this.weights[m]![q] = parts.den;
      } else {
        const v = perQueryValue(measure, ranked, judged);
        this.values[m][q] = v === null ? NaN : v;
      }
    });
  }

  build(): Evaluation {
    const n = this.qids.length;
    const columns = this.measures.map((measure, m): MeasureColumn => ({
      measure,
      aggregation: this.aggregations[m],
      values: this.values[m].slice(0, n),
      weights: this.weights[m]?.slice(0, n),
    }));
    return { qids: this.qids, columns };
  }
}

export function perQueryValue(m: Measure, rankedInput: Labels, judged: Labels): number | null {
  if (isTrecBacked(m)) return trecBackedValue(m, rankedInput, judged);
  const ranked = m.judgedOnly || m.depth !== undefined ? cutLabels(m, rankedInput) : rankedInput;
  switch (m.kind) {
    case "nDCG":
      return ndcg(ranked, judged, m.k, m.gain);
    case "AP":
      return averagePrecision(ranked, judged, m.k, m.rel);
    case "RR":
      return reciprocalRank(ranked, m.k, m.rel);
    case "P":
      return precision(ranked, m.k!, m.rel);
    case "R":
      return recall(ranked, judged, m.k!, m.rel);
    case "Success":
      return success(ranked, m.k!, m.rel, m.g);
    case "Rank":
      return rankOfNth(ranked, m.g, m.rel);
    case "Judged":
      return judgedAt(ranked, m.k!);
    case "HLU": {
      const { num, den } = halfLifeParts(ranked, judged, m.a, m.rel);
      return den === 0 ? null : (100 * num) / den;
    }
    case "Coverage":
      return null;
    default:
      return trecBackedValue(m, rankedInput, judged);
  }
}

/**
 * Coverage@K (catalog coverage): distinct candidates in all top-K lists / catalog size. The catalog
 * is given explicitly; a listed candidate outside it is an error, not a silently larger numerator.
 */
export function coverage(
  queries: readonly QueryInput[],
  k: number,
  catalog: ReadonlySet<string> | undefined,
): number {
  if (!catalog) throw new Error(`Coverage@${k} needs the catalog of candidates`);
  if (catalog.size === 0) throw new Error(`Coverage@${k} needs a non-empty catalog`);
  const seen = new Set<string>();
  for (const q of queries) {
    if (!q.items) throw new Error(`Coverage@${k} needs the candidate ids of every list`);
    for (let i = 0; i < Math.min(k, q.items.length); i++) {
      const id = q.items[i];
      if (!catalog.has(id)) throw new Error(`candidate ${id} in the list of ${q.qid} is not in the catalog`);
      seen.add(id);
    }
  }
  return seen.size / catalog.size;
}

/**
 * The aggregate of one column over the queries drawn `counts[q]` times each (all ones: the plain
 * aggregate). Bootstrap draws reuse this, so a CI is always of the same statistic as its point.
 */
export function aggregateColumn(column: MeasureColumn, counts?: ArrayLike<number>): number | null {
  if (column.aggregation === "corpus") return column.corpusValue ?? null;
  const { values, weights } = column;
  let sum = 0;
  let total = 0;
  for (let q = 0; q < values.length; q++) {
    const c = counts ? counts[q] : 1;
    if (c === 0) continue;
    const v = values[q];
    if (column.aggregation === "geometric") {
      sum += c * Math.log(Math.max(v, MIN_GEO_MEAN));
      total += c;
    } else if (column.aggregation === "ratio") {
      sum += c * v;
      total += c * weights![q];
    } else if (!Number.isNaN(v)) {
      sum += c * v;
      total += c;
    } else if (column.aggregation === "mean") total += c;
  }
  if (column.aggregation === "sum") return sum;
  if (column.aggregation === "geometric") return total === 0 ? null : Math.exp(sum / total);
  return total === 0 ? null : sum / total;
}

/** Rank(g) and the like: how many queries have no value, and their share. */
export function missingOf(column: MeasureColumn): { count: number; share: number } {
  let count = 0;
  for (const v of column.values) if (Number.isNaN(v)) count++;
  return { count, share: column.values.length === 0 ? 0 : count / column.values.length };
}

export interface EvaluationSummary {
  queries: number;
  aggregate: Record<string, number | null>;
  perQuery: Record<string, Record<string, number | null>>;
  missing: Record<string, { count: number; share: number }>;
}

/** Plain objects keyed by canonical measure names, as `assay eval --json` prints them. */
export function summarize(evaluation: Evaluation, options: { perQuery?: boolean } = {}): EvaluationSummary {
  const aggregate: Record<string, number | null> = {};
  const missing: Record<string, { count: number; share: number }> = {};
  for (const column of evaluation.columns) {
    aggregate[column.measure.name] = aggregateColumn(column);
    if (column.aggregation === "present-mean") missing[column.measure.name] = missingOf(column);
  }
  const perQuery: Record<string, Record<string, number | null>> = {};
  if (options.perQuery) {
    evaluation.qids.forEach((qid, q) => {
      const row: Record<string, number | null> = {};
      for (const column of evaluation.columns) {
        if (column.aggregation === "corpus") continue;
        const v = column.values[q];
        row[column.measure.name] =
          column.aggregation === "ratio"
            ? column.weights![q] === 0
              ? null
              : v / column.weights![q]
            : Number.isNaN(v)
              ? null
              : v;
      }
      perQuery[qid] = row;
    });
  }
  return { queries: evaluation.qids.length, aggregate, perQuery, missing };
}
