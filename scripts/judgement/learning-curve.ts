import { DEFAULT_SEED } from "../lib/defaults";
import { createRng, type Rng } from "../lib/random";
import { percentileInterval, type Interval } from "../stats/bootstrap";
import { GRADE_CLASSES, type AggregationMethod, type GradedRating } from "./aggregate";
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
  /**
   * Only these n (default: all): the other points' draws are still drawn, so the seeded stream and
   * each point computed are what the whole curve gives, and threads can share the points
   * (mergeCurves puts them together). Not with coinTies, whose coin draws from the same stream.
   */
  points?: readonly number[];
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
  const { items } = byItem;
  let r = 0;
  for (let i = 0; i < items.length; i++) r = Math.max(r, byItem.start[i + 1] - byItem.start[i]);
  const useTruth = truth !== null && truth.size > 0;
  const rng = createRng(options.seed ?? DEFAULT_SEED);
  const coin = options.coinTies ? rng : undefined;
  if (coin && options.points)
    throw new Error("learning curves: a subset of points cannot break ties with a coin");
  const classes = options.classes ?? GRADE_CLASSES;
  const reference: (number | null)[] = useTruth ? items.map((item) => truth.get(item) ?? null) : [];
  const scored = useTruth
    ? items.map((_, i) => i).filter((i) => reference[i] !== null)
    : items.map((_, i) => i);
  // Only the scored items need a label, but for Dawid–Skene (every item moves the raters' matrices)
  // and for a coin (whose draws follow the items in order).
  const only = coin ? null : Int32Array.from(scored);
  const label = (method: AggregationMethod, picked: Picks, warm?: Warm) =>
    labelsOf(method, picked, { raters: byItem.raters, classes, coin, warm, only });
  const every = allPicks(byItem);
  const allLabels = new Map(methods.map((m) => [m, Array.from(label(m, every), nullIfNaN)]));
  // Gold items nobody graded are still gold: they count as wrong for every method.
  const goldTotal = useTruth ? truth.size : items.length;
  const accuracyOf = (method: AggregationMethod, labels: ArrayLike<number | null>) => {
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
    if (options.points && !options.points.includes(n)) {
      if (n < r) skipDraws(byItem, n, draws, rng);
      continue;
    }
    if (n === r && !coin) {
      // Every item keeps all its grades: each draw is the all-rater labelling, no spread to sample.
      for (const m of methods) {
        const all = curves.get(m)!.allRaters;
        curves.get(m)!.points.push({ n, accuracy: all, ci: { lower: all, upper: all } });
      }
    } else {
      // Dawid–Skene's EM at this n starts from the previous draw's priors and confusion matrices.
      const warm: Warm = {};
      const values = drawAccuracies(byItem, n, draws, rng, methods, (m, picked) =>
        accuracyOf(m, label(m, picked, warm)),
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
  for (const curve of curves.values()) curve.suggestedN = suggestedN(curve);
  return curves;
}

function suggestedN(curve: LearningCurve) {
  return curve.points.find((p) => p.accuracy >= 0.95 * curve.allRaters)?.n ?? null;
}

/** One curve per method from curves computed for parts of the points (`points`), in order of n. */
export function mergeCurves(
  parts: readonly Map<AggregationMethod, LearningCurve>[],
): Map<AggregationMethod, LearningCurve> {
  const out = new Map<AggregationMethod, LearningCurve>();
  for (const [method, first] of parts[0]) {
    const points = parts.flatMap((p) => p.get(method)!.points).sort((a, b) => a.n - b.n);
    const curve = { points, allRaters: first.allRaters, suggestedN: null };
    out.set(method, { ...curve, suggestedN: suggestedN(curve) });
  }
  return out;
}

/** Draws what drawAccuracies draws for n, and nothing else: the stream moves on as if the point were computed. */
function skipDraws({ items, start }: GradesByItem, n: number, draws: number, rng: Rng) {
  let total = 0;
  for (let i = 0; i < items.length; i++) total += Math.min(n, start[i + 1] - start[i]);
  total *= draws;
  const scratch = new Uint32Array(Math.min(total, 1 << 16));
  for (let done = 0; done < total; done += scratch.length)
    rng.fillUint32(scratch, 0, Math.min(scratch.length, total - done));
}

/**
 * Each item's grades and, beside them, the index of the rater who gave each: item i's are
 * grades[start[i] .. start[i+1]), in the order of the ratings.
 */
interface GradesByItem {
  items: string[];
  start: Int32Array;
  grades: Float64Array;
  whose: Int32Array;
  /** How many raters there are. */
  raters: number;
  /** The most grades any item has. */
  most: number;
}

function gradesByItem(ratings: readonly GradedRating[]): GradesByItem {
  const itemIndex = new Map<string, number>();
  const raters = new Map<string, number>();
  const itemOf = new Int32Array(ratings.length);
  ratings.forEach((r, o) => {
    let i = itemIndex.get(r.item);
    if (i === undefined) itemIndex.set(r.item, (i = itemIndex.size));
    itemOf[o] = i;
    if (!raters.has(r.rater)) raters.set(r.rater, raters.size);
  });
  const items = [...itemIndex.keys()];
  const start = new Int32Array(items.length + 1);
  for (const i of itemOf) start[i + 1]++;
  for (let i = 0; i < items.length; i++) start[i + 1] += start[i];
  const fill = start.slice(0, items.length);
  const grades = new Float64Array(ratings.length);
  const whose = new Int32Array(ratings.length);
  ratings.forEach((r, o) => {
    const at = fill[itemOf[o]]++;
    grades[at] = r.grade;
    whose[at] = raters.get(r.rater)!;
  });
  let most = 0;
  for (let i = 0; i < items.length; i++) most = Math.max(most, start[i + 1] - start[i]);
  return { items, start, grades, whose, raters: raters.size, most };
}

/**
 * The grades one draw picked, item by item (item i's are grade[start[i] .. start[i+1])), and the rater
 * of each; typed arrays reused from draw to draw, a million draws of a few grades being too many
 * small arrays to allocate.
 */
interface Picks {
  start: Int32Array;
  grade: Float64Array;
  rater: Int32Array;
}

/** Every grade of every item: the all-rater labelling's picks. */
function allPicks({ start, grades, whose }: GradesByItem): Picks {
  return { start, grade: grades, rater: whose };
}

const nullIfNaN = (x: number) => (Number.isNaN(x) ? null : x);

/** Rater-level parameters carried from one draw's Dawid–Skene fit to the next (no item's posterior). */
interface Warm {
  params?: DsParameters;
}

interface LabelContext {
  raters: number;
  classes: number;
  coin?: Rng;
  warm?: Warm;
  /** The items whose labels are read (null: all); the others' are left NaN. Not with a coin. */
  only: Int32Array | null;
}

/** Each item's label by one aggregation method from the grades picked (NaN: undecided). */
function labelsOf(method: AggregationMethod, picked: Picks, context: LabelContext): Float64Array {
  const { raters, classes, coin, warm, only } = context;
  if (method === "dawid-skene") return dsLabels(picked, raters, classes, warm);
  const { start, grade } = picked;
  const items = start.length - 1;
  const out = new Float64Array(items);
  let most = 1;
  for (let i = 0; i < items; i++) most = Math.max(most, start[i + 1] - start[i]);
  const sorted = new Float64Array(most);
  if (only) out.fill(NaN);
  for (let at = 0, end = only ? only.length : items; at < end; at++) {
    const i = only ? only[at] : at;
    const from = start[i],
      count = start[i + 1] - from;
    if (count === 0) out[i] = NaN;
    else if (method === "mean") {
      // As meanGrade: the sum in the grades' order, rounded half up.
      let sum = 0;
      for (let k = 0; k < count; k++) sum += grade[from + k];
      out[i] = Math.floor(sum / count + 0.5);
    } else {
      // Insertion sort: an item has a few grades.
      for (let k = 0; k < count; k++) {
        const g = grade[from + k];
        let at = k;
        for (; at > 0 && sorted[at - 1] > g; at--) sorted[at] = sorted[at - 1];
        sorted[at] = g;
      }
      out[i] = method === "median" ? sorted[(count - 1) >> 1] : majorityOfSorted(sorted, count, coin);
    }
  }
  return out;
}

/**
 * majorityGrade on grades sorted ascending: the most frequent, NaN on a tie unless the coin picks
 * one of the tied grades (in ascending order, as majorityGrade lists them).
 */
function majorityOfSorted(sorted: Float64Array, count: number, coin?: Rng): number {
  let best = 0,
    tied = 0,
    first = 0;
  for (let k = 0; k < count;) {
    let run = 1;
    while (k + run < count && sorted[k + run] === sorted[k]) run++;
    if (run > best) [best, tied, first] = [run, 1, k];
    else if (run === best) tied++;
    k += run;
  }
  if (tied === 1) return sorted[first];
  if (!coin) return NaN;
  // The pick-th of the tied grades, in ascending order.
  let pick = coin.int(tied);
  for (let k = 0; k < count;) {
    let run = 1;
    while (k + run < count && sorted[k + run] === sorted[k]) run++;
    if (run === best && pick-- === 0) return sorted[k];
    k += run;
  }
  return NaN;
}

/** Per method, the accuracy of each of `draws` seeded draws of n grades per item. */
function drawAccuracies(
  { items, start, grades, whose, most }: GradesByItem,
  n: number,
  draws: number,
  rng: Rng,
  methods: readonly AggregationMethod[],
  accuracy: (method: AggregationMethod, picked: Picks) => number,
): Map<AggregationMethod, Float64Array> {
  const values = new Map(methods.map((m) => [m, new Float64Array(draws)]));
  const picked: Picks = {
    start: new Int32Array(items.length + 1),
    grade: new Float64Array(0),
    rater: new Int32Array(0),
  };
  for (let i = 0; i < items.length; i++)
    picked.start[i + 1] = picked.start[i] + Math.min(n, start[i + 1] - start[i]);
  picked.grade = new Float64Array(picked.start[items.length]);
  picked.rater = new Int32Array(picked.start[items.length]);
  const order = new Int32Array(Math.max(1, most));
  // Each draw's random numbers in one call: the same outputs, in the same order, as rng.int per pick.
  const u = new Uint32Array(picked.start[items.length]);
  for (let d = 0; d < draws; d++) {
    rng.fillUint32(u);
    for (let i = 0; i < items.length; i++) {
      // The first min(n, m) positions of a seeded shuffle of the item's m grades.
      const from = start[i],
        m = start[i + 1] - from,
        at = picked.start[i],
        take = picked.start[i + 1] - at;
      for (let k = 0; k < m; k++) order[k] = k;
      for (let k = 0; k < take; k++) {
        const j = k + Math.floor((u[at + k] / 4294967296) * (m - k));
        const o = order[j];
        order[j] = order[k];
        order[k] = o;
        picked.grade[at + k] = grades[from + o];
        picked.rater[at + k] = whose[from + o];
      }
    }
    for (const m of methods) values.get(m)![d] = accuracy(m, picked);
  }
  return values;
}

function dsLabels(picked: Picks, J: number, K: number, warm?: Warm): Float64Array {
  const { start, grade, rater } = picked;
  const I = start.length - 1;
  const N = start[I];
  const obs: Observations = {
    item: new Int32Array(N),
    rater: rater.subarray(0, N),
    cls: new Int32Array(N),
    items: I,
    raters: J,
    classes: K,
    itemStart: start,
  };
  for (let i = 0; i < I; i++)
    for (let o = start[i]; o < start[i + 1]; o++) {
      obs.item[o] = i;
      obs.cls[o] = grade[o] - 1;
    }
  const em = dawidSkeneEm(obs, "majority", undefined, undefined, warm?.params);
  if (warm) warm.params = { priors: em.priors, confusion: em.confusion };
  const labels = dawidSkeneLabels(em.posteriors, K);
  const out = new Float64Array(I);
  for (let i = 0; i < I; i++) out[i] = start[i + 1] > start[i] ? labels[i] + 1 : NaN;
  return out;
}

/** Where a learning curve first reaches a target accuracy, and the grades used and left unused there. */
export interface GradesSaved {
  n: number;
  /** Σ over the items of min(n, the item's grades). */
  gradesUsed: number;
  /** Every grade minus those used. */
  gradesSaved: number;
}

/**
 * The fewest grades per item whose mean accuracy reaches `target` (within 1e-12: a mean over draws
 * that equals the all-grade accuracy may differ in the last bit), and what the campaign could have
 * saved there: each item keeps min(n, its grades). Null when no point reaches it.
 */
export function gradesSavedAt(
  points: readonly { n: number; accuracy: number }[],
  target: number,
  gradesPerItem: readonly number[],
): GradesSaved | null {
  const reached = points.find((p) => p.accuracy >= target - 1e-12);
  if (!reached) return null;
  let used = 0,
    all = 0;
  for (const m of gradesPerItem) {
    used += Math.min(reached.n, m);
    all += m;
  }
  return { n: reached.n, gradesUsed: used, gradesSaved: all - used };
}
