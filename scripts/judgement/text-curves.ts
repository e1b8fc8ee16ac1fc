import { DEFAULT_SEED } from "../lib/defaults";
import { createRng, type Rng } from "../lib/random";
import { percentileInterval, type Interval } from "../stats/bootstrap";
import { adjustPValues } from "../stats/multiple-testing";
import { pairedTTest } from "../stats/paired";
import { studentTCritical } from "../stats/distributions";
import type { GradedRating } from "./aggregate";
import type { ItemText } from "./clustering";
import { gradesSavedAt, type GradesSaved } from "./learning-curve";
import {
  neighboursOf,
  textEstimate,
  textMethodName,
  voteTable,
  type Neighbours,
  type TextMethod,
  type VoteTable,
} from "./text-estimates";

export interface TextCurvePoint {
  /** Votes per item (items with fewer keep all of theirs). */
  n: number;
  /** Mean accuracy on the gold items over the draws. */
  accuracy: number;
  /** 2.5 and 97.5 percentiles of the draws' accuracies. */
  ci: Interval | null;
  /** Against majority vote at the same n and draws: mean accuracy difference (this − majority) and
   *  the paired t-test's p over gold items (each item's share of draws right), Holm-adjusted across n. */
  difference: number | null;
  /** The paired t interval (95%) of that difference over gold items, the interval of the test beside it. */
  differenceCi: Interval | null;
  pValue: number | null;
  pHolm: number | null;
}

export interface TextCurve {
  /** "majority", or e.g. "nn s=0.3", "join-until-n adaptive". */
  method: string;
  points: TextCurvePoint[];
  /** Accuracy with every vote of every item. */
  allVotes: number;
  /** Fewest votes per item whose mean accuracy reaches majority's all-vote accuracy, and the grades
   *  that leaves unused (every grade of the campaign minus Σ min(n, votes of the item)); null if none. */
  saving: GradesSaved | null;
}

export interface TextCurveOptions {
  methods: readonly TextMethod[];
  /** join-until-n's required number of votes (default: the most votes any item has). */
  target?: number;
  draws?: number;
  seed?: string | number;
  /** Break majority ties with a seeded coin instead of counting them undecided (wrong). */
  coinTies?: boolean;
  onProgress?: (done: number, total: number) => void;
}

interface Setting {
  items: string[];
  votes: number[][];
  neighbours: Neighbours[];
  gold: number[];
  truth: number[];
  goldTotal: number;
  target: number;
  coin?: Rng;
}

/**
 * Learning curves of majority vote and the text-aware estimates against gold: for n = 1, 2, … (up to
 * the most votes any item has), each item's votes in a seeded random order, the first n kept; each
 * method's accuracy on the gold items (undecided, or a gold item nobody graded, counts as wrong),
 * averaged over `draws` orders, with the 2.5–97.5 percentiles of the draws as the 95% interval.
 */
export function textLearningCurves(
  ratings: readonly GradedRating[],
  texts: readonly ItemText[],
  truth: ReadonlyMap<string, number>,
  options: TextCurveOptions,
): { curves: TextCurve[]; grades: number } {
  const items = [...new Set(ratings.map((r) => r.item))];
  const position = new Map(items.map((item, i) => [item, i]));
  const votes: number[][] = items.map(() => []);
  for (const r of ratings) votes[position.get(r.item)!].push(r.grade);
  const r = Math.max(0, ...votes.map((v) => v.length));
  const rng = createRng(options.seed ?? DEFAULT_SEED);
  const gold = items.map((_, i) => i).filter((i) => truth.has(items[i]));
  const setting: Setting = {
    items,
    votes,
    neighbours: neighboursOf(items, texts),
    gold,
    truth: gold.map((i) => truth.get(items[i])!),
    goldTotal: truth.size,
    target: options.target ?? r,
    coin: options.coinTies ? createRng(`${options.seed ?? DEFAULT_SEED}:ties`) : undefined,
  };
  // Only the gold items' estimates are scored: the others are not computed (their votes still count).
  const labellers = [
    (t: VoteTable) => labelsOfGold(setting, (i) => t.majority[i]),
    ...options.methods.map(
      (m) => (t: VoteTable) =>
        labelsOfGold(setting, (i) => textEstimate(m, t, setting.neighbours, setting.target, i, setting.coin)),
    ),
  ];
  const names = ["majority", ...options.methods.map(textMethodName)];
  const perN: PointDraws[] = [];
  for (let n = 1; n <= r; n++) {
    // With every vote kept, every order gives the same labels: one draw says it all (unless a coin decides ties).
    const draws = n === r && !setting.coin ? 1 : (options.draws ?? 1000);
    perN.push(drawPoint(setting, n, draws, rng, labellers));
    options.onProgress?.(n, r);
  }
  const grades = votes.reduce((s, v) => s + v.length, 0);
  const allVotes = voteTable(votes, setting.coin);
  const all = labellers.map((label) => accuracyOf(setting, label(allVotes)).accuracy);
  const curves = names.map((method, m) => curveOf(method, m, perN, all[m], all[0], setting));
  return { curves, grades };
}

/** One n: per method, each draw's accuracy and each gold item's count of draws it was right in. */
interface PointDraws {
  n: number;
  accuracies: Float64Array[];
  rightShare: Float64Array[];
}

function drawPoint(
  setting: Setting,
  n: number,
  draws: number,
  rng: Rng,
  labellers: ((t: VoteTable) => (number | null)[])[],
): PointDraws {
  const accuracies = labellers.map(() => new Float64Array(draws));
  const rightShare = labellers.map(() => new Float64Array(setting.gold.length));
  for (let d = 0; d < draws; d++) {
    const table = voteTable(
      setting.votes.map((own) => firstOfShuffle(own, n, rng)),
      setting.coin,
    );
    labellers.forEach((label, m) => {
      const { accuracy, right } = accuracyOf(setting, label(table));
      accuracies[m][d] = accuracy;
      right.forEach((ok, g) => (rightShare[m][g] += ok ? 1 / draws : 0));
    });
  }
  return { n, accuracies, rightShare };
}

/** The labels of every item, computed for the gold ones only (null elsewhere). */
function labelsOfGold(setting: Setting, label: (i: number) => number | null): (number | null)[] {
  const labels: (number | null)[] = new Array(setting.items.length).fill(null);
  for (const i of setting.gold) labels[i] = label(i);
  return labels;
}

function accuracyOf(setting: Setting, labels: (number | null)[]) {
  const right = setting.gold.map((i, g) => labels[i] !== null && labels[i] === setting.truth[g]);
  const count = right.filter(Boolean).length;
  return { accuracy: setting.goldTotal ? count / setting.goldTotal : NaN, right };
}

/** The first min(n, m) of a seeded shuffle of an item's m votes. */
function firstOfShuffle(votes: readonly number[], n: number, rng: Rng): number[] {
  const order = votes.slice();
  const take = Math.min(n, order.length);
  for (let i = 0; i < take; i++) {
    const j = i + rng.int(order.length - i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, take);
}

function curveOf(
  method: string,
  m: number,
  perN: PointDraws[],
  allVotes: number,
  majorityAll: number,
  setting: Setting,
): TextCurve {
  const tests = perN.map((p) => {
    if (m === 0 || setting.gold.length < 2) return null;
    return pairedTTest(p.rightShare[0], p.rightShare[m]).pValue;
  });
  const holm = adjustPValues(tests, "holm");
  const points = perN.map((p, k) => {
    const a = p.accuracies[m];
    const accuracy = a.reduce((s, x) => s + x, 0) / a.length;
    const majority = p.accuracies[0].reduce((s, x) => s + x, 0) / p.accuracies[0].length;
    return {
      n: p.n,
      accuracy,
      ci: percentileInterval(a, 0.95),
      difference: m === 0 ? null : accuracy - majority,
      differenceCi:
        m === 0 || setting.gold.length < 2 ? null : pairedTInterval(p.rightShare[0], p.rightShare[m]),
      pValue: tests[k],
      pHolm: holm[k],
    };
  });
  const saving = gradesSavedAt(
    points,
    majorityAll,
    setting.votes.map((v) => v.length),
  );
  return { method, points, allVotes, saving };
}

/** The 95% Student t interval of the mean of b − a over paired items (as the paired t-test reads it). */
function pairedTInterval(a: Float64Array, b: Float64Array): Interval | null {
  const n = a.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += b[i] - a[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (b[i] - a[i] - mean) ** 2;
  const half = studentTCritical(0.95, n - 1) * Math.sqrt(squares / (n - 1) / n);
  return { lower: mean - half, upper: mean + half };
}
