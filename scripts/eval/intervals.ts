import { bootstrapMeans, bootstrapStatistic, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { aggregateColumn, type Evaluation } from "./evaluate";

/**
 * Bootstrap CIs of every measure of an evaluation, resampling queries. Plain means share one fast
 * pass; Rank(g) (mean over queries with a value) and HLU-ratio (ratio of sums) are recomputed per resample.
 * Coverage@K is a property of the whole query set and gets no interval.
 */
export function evaluationIntervals(
  evaluation: Evaluation,
  options: BootstrapOptions = {},
): Record<string, Interval | null> {
  const out: Record<string, Interval | null> = {};
  const plain = evaluation.columns.filter((c) => c.aggregation === "mean");
  const fast = bootstrapMeans(
    plain.map((c) => c.values),
    options,
  );
  plain.forEach((c, i) => (out[c.measure.name] = fast[i]));
  for (const column of evaluation.columns) {
    if (column.aggregation === "mean") continue;
    out[column.measure.name] =
      column.aggregation === "corpus"
        ? null
        : bootstrapStatistic(column.values.length, (counts) => aggregateColumn(column, counts), options);
  }
  return out;
}
