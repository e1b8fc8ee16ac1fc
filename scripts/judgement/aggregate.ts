import type { Rng } from "../lib/random";
import { bootstrapMeans, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { dawidSkene } from "./dawid-skene";
import { lowerMedian } from "../stats/quantile";

/** One expert's grade of one item; "can't judge" is left out before it gets here. */
export interface GradedRating {
  item: string;
  rater: string;
  grade: number;
}

export type AggregationMethod = "median" | "majority" | "mean" | "dawid-skene";
export const aggregationMethods: AggregationMethod[] = ["median", "majority", "mean", "dawid-skene"];

/** Grades on Assay's scale, 1 (irrelevant) … 4 (highly relevant). */
export const GRADE_CLASSES = 4;

/** Median grade, the lower middle for even counts (the label of `labels.ts`); null without grades. */
export function medianGrade(grades: readonly number[]): number | null {
  return grades.length === 0 ? null : lowerMedian(grades);
}

/**
 * Majority vote: the most frequent grade. A tie between the most frequent grades is undecided (null)
 * unless a seeded coin is given, which picks one of them with equal chance.
 */
export function majorityGrade(grades: readonly number[], coin?: Rng): number | null {
  const counts = new Map<number, number>();
  for (const g of grades) counts.set(g, (counts.get(g) ?? 0) + 1);
  let best = 0;
  let tied: number[] = [];
  for (const [grade, count] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (count > best) [best, tied] = [count, [grade]];
    else if (count === best) tied.push(grade);
  }
  if (tied.length === 0) return null;
  if (tied.length === 1) return tied[0];
  return coin ? tied[coin.int(tied.length)] : null;
}

/** Mean grade rounded half up to a grade (2.5 → 3); null without grades. */
export function meanGrade(grades: readonly number[]): number | null {
  if (grades.length === 0) return null;
  let sum = 0;
  for (const g of grades) sum += g;
  return Math.floor(sum / grades.length + 0.5);
}

export interface AggregateOptions {
  /** Break majority ties with this seeded coin instead of leaving them undecided. */
  coin?: Rng;
  /** Number of grade classes for Dawid–Skene (grades 1..classes). */
  classes?: number;
}

/** Every item's aggregated grade by one method (null = undecided or nobody could judge). */
export function aggregateItems(
  ratings: readonly GradedRating[],
  method: AggregationMethod,
  options: AggregateOptions = {},
): Map<string, number | null> {
  if (method === "dawid-skene")
    return dawidSkene(ratings, { classes: options.classes ?? GRADE_CLASSES }).labels;
  const byItem = new Map<string, number[]>();
  for (const r of ratings) {
    let grades = byItem.get(r.item);
    if (!grades) byItem.set(r.item, (grades = []));
    grades.push(r.grade);
  }
  const label =
    method === "median"
      ? medianGrade
      : method === "mean"
        ? meanGrade
        : (g: number[]) => majorityGrade(g, options.coin);
  return new Map([...byItem].map(([item, grades]) => [item, label(grades)]));
}

export interface MethodAccuracy {
  /** Share of gold items whose aggregated grade equals the truth; undecided and unrated count as wrong. */
  accuracy: number;
  /** Percentile bootstrap CI, resampling gold items. */
  ci: Interval | null;
}

/**
 * Accuracy of several aggregations against the gold items, each with a bootstrap CI from the same
 * resamples of the gold items (so the methods' intervals are comparable).
 */
export function aggregationAccuracy(
  labels: ReadonlyMap<AggregationMethod, ReadonlyMap<string, number | null>>,
  truth: ReadonlyMap<string, number>,
  options: BootstrapOptions = {},
): Map<AggregationMethod, MethodAccuracy> {
  const gold = [...truth.keys()];
  const methods = [...labels.keys()];
  const columns = methods.map((m) =>
    Float64Array.from(gold, (item) => (labels.get(m)!.get(item) === truth.get(item) ? 1 : 0)),
  );
  const cis = bootstrapMeans(columns, options);
  return new Map(
    methods.map((m, j) => [
      m,
      { accuracy: gold.length ? columns[j].reduce((s, x) => s + x, 0) / gold.length : NaN, ci: cis[j] },
    ]),
  );
}
