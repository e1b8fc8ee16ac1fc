import { holm, pairedTest, type PairedTest } from "../stats/paired";
import { aggregateColumn, type Evaluation, type MeasureColumn } from "./evaluate";
import { isLowerBetter } from "./measures";

/** One run's evaluation, under the name the report gives it. */
export interface NamedEvaluation {
  name: string;
  evaluation: Evaluation;
}

/** One pair of runs on one measure: run `a` is the earlier in the call, `b` the later. */
export interface RunPair {
  measure: string;
  a: string;
  b: string;
  /** Queries both runs have a value for: the pair is tested on these. */
  queries: number;
  meanA: number | null;
  meanB: number | null;
  statistic: number | null;
  pValue: number | null;
  /** Holm-adjusted over every pair of this measure. */
  pAdjusted: number | null;
  significant: boolean;
  /** The run significantly better on this pair, if either. */
  better: string | null;
  method: string;
}

export interface RunsComparison {
  test: PairedTest;
  alpha: number;
  measures: string[];
  /** Measures with no per-query values to pair (Coverage@K, HLU-ratio): shown, never marked. */
  untested: string[];
  /** Measures where the lower value is the better one (Rank(g), trec_eval's unj and rbp_resid). */
  lowerIsBetter: string[];
  /** Whether every run was evaluated on the same queries; if not, each pair is tested on those both have. */
  sameQueries: boolean;
  runs: {
    letter: string;
    name: string;
    queries: number;
    means: Record<string, number | null>;
    better: Record<string, string[]>;
  }[];
  pairs: RunPair[];
}

export const RUN_LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * Compares runs as ranx's `compare` does: for each measure, every pair of runs gets a paired test of
 * their per-query values on the queries both have, the p-values of a measure's pairs are
 * Holm-adjusted together, and a run is marked better than another where the adjusted p is at most
 * `alpha` and its mean over the shared queries is the better one (lower for Rank(g), higher otherwise).
 */
export function compareRuns(
  runs: readonly NamedEvaluation[],
  options: { test?: PairedTest; alpha?: number; B?: number; seed?: string } = {},
): RunsComparison {
  if (runs.length > RUN_LETTERS.length)
    throw new Error(
      `at most ${RUN_LETTERS.length} runs can be compared at once (one letter each), not ${runs.length}`,
    );
  const test = options.test ?? "t";
  const alpha = options.alpha ?? 0.05;
  const columns = runs[0]?.evaluation.columns ?? [];
  const measures = columns.map((c) => c.measure.name);
  const untested = columns.filter((c) => !isPaired(c)).map((c) => c.measure.name);
  const firstQids = runs[0]?.evaluation.qids ?? [];
  const sameQueries = runs.every(
    (r) =>
      r.evaluation.qids.length === firstQids.length && r.evaluation.qids.every((q, i) => q === firstQids[i]),
  );
  const summaries = runs.map((r, i) => ({
    letter: RUN_LETTERS[i],
    name: r.name,
    queries: r.evaluation.qids.length,
    means: Object.fromEntries(r.evaluation.columns.map((c) => [c.measure.name, aggregateColumn(c)])),
    better: Object.fromEntries(measures.map((m) => [m, [] as string[]])),
  }));
  const pairs: RunPair[] = [];
  columns.forEach((column, m) => {
    if (!isPaired(column)) return;
    const lowerIsBetter = isLowerBetter(column.measure);
    const ofMeasure: RunPair[] = [];
    for (let i = 0; i < runs.length; i++) {
      for (let j = i + 1; j < runs.length; j++) {
        const [a, b] = sharedValues(runs[i].evaluation, runs[j].evaluation, m);
        const meanA = a.length ? mean(a) : null;
        const meanB = b.length ? mean(b) : null;
        const result = a.length >= 2 ? pairedTest(test, a, b, { B: options.B, seed: options.seed }) : null;
        ofMeasure.push({
          measure: column.measure.name,
          a: runs[i].name,
          b: runs[j].name,
          queries: a.length,
          meanA,
          meanB,
          statistic: result && Number.isFinite(result.statistic) ? result.statistic : null,
          pValue: result ? result.pValue : null,
          pAdjusted: null,
          significant: false,
          better: null,
          method: result ? result.method : "fewer than 2 shared queries",
        });
      }
    }
    const tested = ofMeasure.filter((p) => p.pValue !== null);
    holm(tested.map((p) => p.pValue!)).forEach((adjusted, k) => {
      const pair = tested[k];
      pair.pAdjusted = adjusted;
      pair.significant = adjusted <= alpha;
      const difference = pair.meanB! - pair.meanA!;
      if (pair.significant && difference !== 0)
        pair.better = difference > 0 !== lowerIsBetter ? pair.b : pair.a;
    });
    for (const pair of ofMeasure) {
      if (!pair.better) continue;
      const winner = summaries.find((s) => s.name === pair.better)!;
      winner.better[pair.measure].push(pair.better === pair.a ? pair.b : pair.a);
    }
    pairs.push(...ofMeasure);
  });
  // Marks in run order (a, b, c…), as the letters read.
  const order = new Map(summaries.map((s, i) => [s.name, i]));
  for (const s of summaries)
    for (const m of measures) s.better[m].sort((x, y) => order.get(x)! - order.get(y)!);
  const lowerIsBetter = columns.filter((c) => isLowerBetter(c.measure)).map((c) => c.measure.name);
  return { test, alpha, measures, untested, lowerIsBetter, sameQueries, runs: summaries, pairs };
}

/** Columns with one value per query that a paired test can take: means of per-query values. */
function isPaired(column: MeasureColumn): boolean {
  return column.aggregation === "mean" || column.aggregation === "present-mean";
}

/** The two runs' values of measure `m` on the queries both have a value for, in qid order. */
function sharedValues(x: Evaluation, y: Evaluation, m: number): [number[], number[]] {
  const yIndex = new Map(y.qids.map((q, i) => [q, i]));
  const a: number[] = [];
  const b: number[] = [];
  const xs = x.columns[m].values;
  const ys = y.columns[m].values;
  x.qids.forEach((qid, i) => {
    const j = yIndex.get(qid);
    if (j === undefined || Number.isNaN(xs[i]) || Number.isNaN(ys[j])) return;
    a.push(xs[i]);
    b.push(ys[j]);
  });
  return [a, b];
}

function mean(values: readonly number[]) {
  return values.reduce((s, v) => s + v, 0) / values.length;
}
