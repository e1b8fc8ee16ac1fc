import { DEFAULT_SEED } from "../lib/defaults";
import { createRng, type Rng } from "../lib/random";
import { percentileInterval, type Interval } from "../stats/bootstrap";
import {
  GRADE_CLASSES,
  majorityGrade,
  meanGrade,
  medianGrade,
  type AggregationMethod,
  type GradedRating,
} from "./aggregate";
import { dawidSkeneEm, dawidSkeneLabels, type DsParameters, type Observations } from "./dawid-skene";

export const DEFAULT_DRAWS = 1000;

export interface CurvePoint {
  /** Raters per item (items with fewer grades keep all of theirs). */
  n: number;
  /** Mean accuracy over the draws. */
  accuracy: number;
  /** 2.5 and 97.5 percentiles of the draws' accuracies: how much the choice of raters moves it. */
  ci: Interval | null;
}

export interface LearningCurve {
  points: CurvePoint[];
  /** Accuracy with every rater's grade (the line the curve approaches). */
  allRaters: number;
  /** Smallest n whose mean accuracy reaches 95% of the all-rater accuracy; null if none does. */
  suggestedN: number | null;
}

export interface LearningCurveOptions {
  draws?: number;
  seed?: string | number;
  /** Break majority ties with a seeded coin (drawn from the same stream) instead of counting them wrong. */
  coinTies?: boolean;
  classes?: number;
  /** Called after each n with (n, r). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Learning curves: for n = 1..r (r = most grades any item has), draw n of each item's grades at random
 * (without replacement), aggregate, and score against the reference; average over `draws` seeded draws.
 * The reference is the truth on the gold items when there are any, else each method's own all-rater
 * label on every item (then the all-rater accuracy is 1 by construction and the curve says how soon
 * fewer raters give the same labels). Undecided labels count as wrong.
 */
export function learningCurves(
  ratings: readonly GradedRating[],
  methods: readonly AggregationMethod[],
  truth: ReadonlyMap<string, number> | null,
  options: LearningCurveOptions = {},
): Map<AggregationMethod, LearningCurve> {
  const draws = options.draws ?? DEFAULT_DRAWS;
  const byItem = gradesByItem(ratings);
  const { items, grades, whose } = byItem;
  const r = Math.max(0, ...grades.map((g) => g.length));
  const useTruth = truth !== null && truth.size > 0;
  const rng = createRng(options.seed ?? DEFAULT_SEED);
  const coin = options.coinTies ? rng : undefined;
  const label = (method: AggregationMethod, picked: number[][], pickedRaters: number[][], warm?: Warm) =>
    labelsOf(method, picked, pickedRaters, byItem.raters, options.classes ?? GRADE_CLASSES, coin, warm);
  const allLabels = new Map(methods.map((m) => [m, label(m, grades, whose)]));
  const reference: (number | null)[] = useTruth ? items.map((item) => truth.get(item) ?? null) : [];
  const scored = useTruth
    ? items.map((_, i) => i).filter((i) => reference[i] !== null)
    : items.map((_, i) => i);
  // Gold items nobody graded are still gold: they count as wrong for every method.
  const goldTotal = useTruth ? truth.size : items.length;
  const accuracyOf = (method: AggregationMethod, labels: (number | null)[]) => {
    const ref = useTruth ? reference : allLabels.get(method)!;
    let right = 0;
    for (const i of scored) if (labels[i] !== null && labels[i] === ref[i]) right++;
    return goldTotal ? right / goldTotal : NaN;
  };
  const curves = new Map(
    methods.map((m) => [
      m,
      {
        points: [] as CurvePoint[],
        allRaters: accuracyOf(m, allLabels.get(m)!),
        suggestedN: null as number | null,
      },
    ]),
  );
  for (let n = 1; n <= r; n++) {
    if (n === r && !coin) {
      // Every item keeps all its grades: each draw is the all-rater labelling, no spread to sample.
      for (const m of methods) {
        const all = curves.get(m)!.allRaters;
        curves.get(m)!.points.push({ n, accuracy: all, ci: { lower: all, upper: all } });
      }
    } else {
      // Dawid–Skene's EM at this n starts from the previous draw's priors and confusion matrices.
      const warm: Warm = {};
      const values = drawAccuracies(byItem, n, draws, rng, methods, (m, picked, pr) =>
        accuracyOf(m, label(m, picked, pr, warm)),
      );
      for (const m of methods) {
        const v = values.get(m)!;
        curves.get(m)!.points.push({
          n,
          accuracy: v.reduce((s, x) => s + x, 0) / draws,
          ci: percentileInterval(v, 0.95),
        });
      }
    }
    options.onProgress?.(n, r);
  }
  for (const curve of curves.values()) {
    curve.suggestedN = curve.points.find((p) => p.accuracy >= 0.95 * curve.allRaters)?.n ?? null;
  }
  return curves;
}

/** Each item's grades and, beside them, the index of the rater who gave each. */
interface GradesByItem {
  items: string[];
  grades: number[][];
  whose: number[][];
  /** How many raters there are. */
  raters: number;
}

function gradesByItem(ratings: readonly GradedRating[]): GradesByItem {
  const items = [...new Set(ratings.map((r) => r.item))];
  const itemIndex = new Map(items.map((item, i) => [item, i]));
  const raters = new Map<string, number>();
  const grades: number[][] = items.map(() => []);
  const whose: number[][] = items.map(() => []);
  for (const r of ratings) {
    if (!raters.has(r.rater)) raters.set(r.rater, raters.size);
    grades[itemIndex.get(r.item)!].push(r.grade);
    whose[itemIndex.get(r.item)!].push(raters.get(r.rater)!);
  }
  return { items, grades, whose, raters: raters.size };
}

/** Rater-level parameters carried from one draw's Dawid–Skene fit to the next (no item's posterior). */
interface Warm {
  params?: DsParameters;
}

/** Each item's label by one aggregation method from the grades picked (and who gave them). */
function labelsOf(
  method: AggregationMethod,
  picked: number[][],
  pickedRaters: number[][],
  raters: number,
  classes: number,
  coin?: Rng,
  warm?: Warm,
): (number | null)[] {
  if (method === "median") return picked.map(medianGrade);
  if (method === "mean") return picked.map(meanGrade);
  if (method === "majority") return picked.map((g) => majorityGrade(g, coin));
  return dsLabels(picked, pickedRaters, raters, classes, warm);
}

/** Per method, the accuracy of each of `draws` seeded draws of n grades per item. */
function drawAccuracies(
  { items, grades, whose }: GradesByItem,
  n: number,
  draws: number,
  rng: Rng,
  methods: readonly AggregationMethod[],
  accuracy: (method: AggregationMethod, picked: number[][], pickedRaters: number[][]) => number,
): Map<AggregationMethod, Float64Array> {
  const values = new Map(methods.map((m) => [m, new Float64Array(draws)]));
  for (let d = 0; d < draws; d++) {
    const picked: number[][] = [];
    const pr: number[][] = [];
    for (let i = 0; i < items.length; i++) {
      const order = partialShuffle(grades[i].length, n, rng);
      picked.push(order.map((o) => grades[i][o]));
      pr.push(order.map((o) => whose[i][o]));
    }
    for (const m of methods) values.get(m)![d] = accuracy(m, picked, pr);
  }
  return values;
}

/** The first min(n, m) positions of a seeded shuffle of 0..m−1. */
function partialShuffle(m: number, n: number, rng: Rng): number[] {
  const order = Array.from({ length: m }, (_, i) => i);
  const take = Math.min(n, m);
  for (let i = 0; i < take; i++) {
    const j = i + rng.int(m - i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, take);
}

function dsLabels(
  grades: number[][],
  raters: number[][],
  J: number,
  K: number,
  warm?: Warm,
): (number | null)[] {
  let N = 0;
  for (const g of grades) N += g.length;
  const obs: Observations = {
    item: new Int32Array(N),
    rater: new Int32Array(N),
    cls: new Int32Array(N),
    items: grades.length,
    raters: J,
    classes: K,
  };
  let o = 0;
  grades.forEach((g, i) =>
    g.forEach((grade, x) => {
      obs.item[o] = i;
      obs.rater[o] = raters[i][x];
      obs.cls[o++] = grade - 1;
    }),
  );
  const em = dawidSkeneEm(obs, "majority", undefined, undefined, warm?.params);
  if (warm) warm.params = { priors: em.priors, confusion: em.confusion };
  const labels = dawidSkeneLabels(em.posteriors, K);
  return Array.from(labels, (l, i) => (grades[i].length ? l + 1 : null));
}
