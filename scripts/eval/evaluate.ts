import { grow } from "../lib/grow";
import { aggregationOf, entryOf, type Aggregation, type Labels, type Measure } from "./registry";

export { aggregationOf, type Aggregation };

/** One query to evaluate: its ranked labels (NaN = unjudged) and all its judged labels, sorted descending. */
export interface QueryInput {
  qid: string;
  ranked: Labels;
  judged: Labels;
  /** Candidate ids by rank; needed only for Coverage@K. */
  items?: readonly string[];
}

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
      column.corpusValue = entryOf(column.measure.kind).corpus!(column.measure, queries, options.catalog);
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
      else if (this.aggregations[m] === "ratio") {
        const parts = entryOf(measure.kind).parts!(measure, ranked, judged);
        this.values[m][q] = parts.num;
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

/** One query's value of a measure (its registry entry's); null where the query has none. */
export function perQueryValue(m: Measure, ranked: Labels, judged: Labels): number | null {
  return entryOf(m.kind).perQuery(m, ranked, judged);
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
