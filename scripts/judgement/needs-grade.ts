import { evaluateQueries } from "../eval/evaluate";
import { parseMeasures } from "../eval/measures";
import { lowerMedian } from "../stats/quantile";
import { dawidSkene } from "./dawid-skene";
import { DS_MIN_GRADES_PER_PAIR, DS_MIN_RATERS, type NextGradeBasis } from "./needs-grade-basis";

/** A pooled pair of a running campaign and the grades it has so far (1–4; "can't judge" left out). */
export interface PairGrades {
  item: string;
  proposal: string;
  candidate: string;
  grades: readonly number[];
  /** Who gave each grade (beside `grades`): lets Dawid–Skene's posterior predict the next one. */
  raters?: readonly string[];
}

export interface SystemLists {
  key: string;
  /** proposal → candidates in ranked order. */
  lists: ReadonlyMap<string, readonly string[]>;
}

export interface NeedsGrade {
  item: string;
  proposal: string;
  candidate: string;
  grades: number;
  /** The pair's label now (lower median) and the chance that one more grade changes it. */
  label: number;
  changeChance: number;
  /** Expected number of system pairs whose nDCG@K order one more grade flips. */
  expectedFlips: number;
  /** Expected total movement of the systems' pairwise nDCG@K differences (of the one system's nDCG@K when alone). */
  expectedShift: number;
  basis: NextGradeBasis;
}

const GRADES = [1, 2, 3, 4];

/**
 * "Needs another grade": every pair ranked by how much one more grade is expected to change the systems'
 * nDCG@K order (mean over proposals, labels = lower median of the grades, rel = grade − 1 as the
 * campaign's results use). The next grade's distribution p(g) (nextGradeChances) comes from the pair's
 * Dawid–Skene posterior when there are enough raters, else from the spread of its grades. For
 * each g whose grade would change the label, the pair's proposal is rescored for every system:
 * flips = system pairs whose order reverses, shift = Σ over system pairs of |change of their
 * difference|; both weighted by p(g). Ranked by expected flips, then shift, then change chance.
 */
export function needsAnotherGrade(
  pairs: readonly PairGrades[],
  systems: readonly SystemLists[],
  k = 10,
): NeedsGrade[] {
  const { basis, chances } = nextGradeChances(pairs);
  const scorer = systemScorer(pairs, systems, k);
  const rows = pairs
    .filter((p) => p.grades.length > 0)
    .map((p) => {
      const label = lowerMedian(p.grades);
      let changeChance = 0;
      let expectedFlips = 0;
      let expectedShift = 0;
      const nextChances = chances(p);
      for (const g of GRADES) {
        const chance = nextChances[g - 1];
        const next = lowerMedian([...p.grades, g]);
        if (next === label || chance === 0) continue;
        const { flips, shift } = scorer.change(p, next);
        changeChance += chance;
        expectedFlips += chance * flips;
        expectedShift += chance * shift;
      }
      const { raters: _, ...pair } = p;
      return { ...pair, grades: p.grades.length, label, changeChance, expectedFlips, expectedShift, basis };
    });
  return rows.sort(
    (a, b) =>
      b.expectedFlips - a.expectedFlips ||
      b.expectedShift - a.expectedShift ||
      b.changeChance - a.changeChance ||
      (a.item < b.item ? -1 : a.item > b.item ? 1 : 0),
  );
}

/**
 * Each pair's chances of grades 1–4 as its next grade.
 * - "dawid-skene" (every pair names its raters, at least DS_MIN_RATERS of them, DS_MIN_GRADES_PER_PAIR
 *   grades per graded pair on average): p(g) = Σ_k T_k π̄_kg, T the pair's posterior over its true grade
 *   from a fit on all the campaign's grades, π̄ the raters' confusion matrices pooled with weights their
 *   grade counts (the next expert is not known yet). A split posterior spreads the next grade; a
 *   confident one, even from a single reliable rater, concentrates it.
 * - "spread": the pair's own grades smoothed towards the campaign's, p(g) = (count(g) + prior(g)) /
 *   (n + 1), prior = every grade's share in the campaign.
 */
export function nextGradeChances(pairs: readonly PairGrades[]): {
  basis: NextGradeBasis;
  chances: (pair: PairGrades) => number[];
} {
  const graded = pairs.filter((p) => p.grades.length > 0);
  const ratings = graded.flatMap((p) =>
    p.grades.map((grade, i) => ({ item: p.item, rater: p.raters?.[i] ?? "", grade })),
  );
  const raters = new Set(ratings.map((r) => r.rater));
  const named = graded.every((p) => p.raters?.length === p.grades.length);
  if (!named || raters.size < DS_MIN_RATERS || ratings.length < DS_MIN_GRADES_PER_PAIR * graded.length) {
    const prior = gradePrior(pairs);
    return {
      basis: "spread",
      chances: (p) =>
        GRADES.map((g) => (p.grades.filter((x) => x === g).length + prior[g - 1]) / (p.grades.length + 1)),
    };
  }
  const ds = dawidSkene(ratings, { classes: GRADES.length });
  const pooled = GRADES.map(() => GRADES.map(() => 0));
  const counts = new Map<string, number>();
  for (const r of ratings) counts.set(r.rater, (counts.get(r.rater) ?? 0) + 1);
  for (const [rater, matrix] of ds.confusion)
    matrix.forEach((row, k) =>
      row.forEach((x, l) => (pooled[k][l] += (x * counts.get(rater)!) / ratings.length)),
    );
  return {
    basis: "dawid-skene",
    chances: (p) => {
      const T = ds.posteriors.get(p.item)!;
      return GRADES.map((_, l) => T.reduce((s, t, k) => s + t * pooled[k][l], 0));
    },
  };
}

function gradePrior(pairs: readonly PairGrades[]): number[] {
  const counts = [0, 0, 0, 0];
  for (const p of pairs) for (const g of p.grades) counts[g - 1]++;
  const total = counts.reduce((s, c) => s + c, 0);
  return counts.map((c) => (total ? c / total : 1 / 4));
}

/** Each system's mean nDCG@K over the proposals it has a list for, and how one label change moves them. */
function systemScorer(pairs: readonly PairGrades[], systems: readonly SystemLists[], k: number) {
  const measure = parseMeasures([`nDCG@${k}`]);
  const labels = new Map<string, Map<string, number>>();
  for (const p of pairs) {
    if (p.grades.length === 0) continue;
    if (!labels.has(p.proposal)) labels.set(p.proposal, new Map());
    labels.get(p.proposal)!.set(p.candidate, lowerMedian(p.grades) - 1);
  }
  const ndcg = (list: readonly string[], judged: ReadonlyMap<string, number>) =>
    evaluateQueries(
      [
        {
          qid: "q",
          ranked: Float64Array.from(list, (c) => judged.get(c) ?? NaN),
          judged: Float64Array.from(judged.values()).sort().reverse(),
        },
      ],
      measure,
    ).columns[0].values[0];
  const scored = systems.map((s) => [...labels.keys()].filter((proposal) => s.lists.has(proposal)));
  const means = systems.map((s, i) => {
    const values = scored[i].map((proposal) => ndcg(s.lists.get(proposal)!, labels.get(proposal)!));
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  });
  return {
    change(pair: PairGrades, label: number) {
      const judged = new Map(labels.get(pair.proposal)!).set(pair.candidate, label - 1);
      const moved = systems.map((s, i) => {
        const list = s.lists.get(pair.proposal);
        // The ideal ranking changes with any label of the proposal: every list of it is rescored.
        if (!list) return means[i];
        const before = ndcg(list, labels.get(pair.proposal)!);
        return means[i] + (ndcg(list, judged) - before) / scored[i].length;
      });
      let flips = 0;
      let shift = systems.length === 1 ? Math.abs(moved[0] - means[0]) : 0;
      for (let a = 0; a < systems.length; a++)
        for (let b = a + 1; b < systems.length; b++) {
          const d0 = means[a] - means[b];
          const d1 = moved[a] - moved[b];
          if (Math.sign(d0) * Math.sign(d1) < 0) flips++; // a reversal; a tie is only a shift
          shift += Math.abs(d1 - d0);
        }
      return { flips, shift };
    },
  };
}
