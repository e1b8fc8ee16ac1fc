import type { GradedRating } from "./aggregate";
import { mean, variance } from "../stats/quantile";
import { oneSampleTTest } from "../stats/t-test";
import { studentTCritical } from "../stats/distributions";

/** A rater is flagged when the t-test of their differences from the truth gives p below this. */
export const FLAG_P = 0.01;

export interface GoldAgreement {
  /** Gold items compared. */
  gold: number;
  /** Share with the grade equal to the truth. */
  exact: number | null;
  /** Share with |grade − truth| ≤ 1. */
  withinOne: number | null;
  /** Mean of grade − truth: positive = grades above the truth. */
  meanDifference: number | null;
  /**
   * 95% t interval of the mean difference, mean ± t(0.975, n − 1)·s/√n: the same t the flag uses, so the
   * interval leaves out 0 exactly when p < 0.05. Null where the t-test is (below 2 items or no spread).
   */
  meanDifferenceCi: { lower: number; upper: number } | null;
  /** One-sample t-test of the differences against 0 (scipy's ttest_1samp); null below 2 or without spread. */
  tStatistic: number | null;
  pValue: number | null;
  /** p < 0.01: the grades differ from the truth systematically. */
  flagged: boolean;
}

/** The gold statistics of paired (grade, truth) values: one rater's grades, or a proposal's average votes. */
export function goldAgreement(grades: readonly number[], truths: readonly number[]): GoldAgreement {
  const n = grades.length;
  const d = grades.map((g, i) => g - truths[i]);
  const test = oneSampleTTest(d);
  const half = test ? studentTCritical(0.95, n - 1) * Math.sqrt(variance(d) / n) : 0;
  return {
    gold: n,
    exact: n ? d.filter((x) => x === 0).length / n : null,
    withinOne: n ? d.filter((x) => Math.abs(x) <= 1).length / n : null,
    meanDifference: n ? mean(d) : null,
    meanDifferenceCi: test ? { lower: test.mean - half, upper: test.mean + half } : null,
    tStatistic: test?.tStatistic ?? null,
    pValue: test?.pValue ?? null,
    flagged: test !== null && test.pValue < FLAG_P,
  };
}

/** Per rater, over the gold items they graded ("can't judge" is not in the ratings). Raters sorted by id. */
export function raterGoldAgreement(
  ratings: readonly GradedRating[],
  truth: ReadonlyMap<string, number>,
): Map<string, GoldAgreement> {
  const byRater = new Map<string, { grades: number[]; truths: number[] }>();
  for (const r of [...ratings].sort((a, b) => (a.rater < b.rater ? -1 : a.rater > b.rater ? 1 : 0))) {
    let own = byRater.get(r.rater);
    if (!own) byRater.set(r.rater, (own = { grades: [], truths: [] }));
    const t = truth.get(r.item);
    if (t === undefined) continue;
    own.grades.push(r.grade);
    own.truths.push(t);
  }
  return new Map([...byRater].map(([rater, { grades, truths }]) => [rater, goldAgreement(grades, truths)]));
}

export interface ProposalGold extends GoldAgreement {
  /** Items of the proposal with at least one grade. */
  items: number;
  /** The fewest grades any of its items has. */
  minJudgements: number;
  /** Pooled within-item variance of grades, Σ(n_i − 1)s_i² / Σ(n_i − 1); null when no item has 2 grades. */
  pooledVariance: number | null;
}

/**
 * Per proposal: the gold statistics of its gold items' average votes against the truth (the "mean
 * difference between average vote and truth" table: one difference per gold item, so exact means the
 * average vote equals the truth), the fewest judgements of any of its items, and the pooled
 * variance of grades within its items. `proposalOf` maps an item to its proposal.
 */
export function proposalGoldAgreement(
  ratings: readonly GradedRating[],
  truth: ReadonlyMap<string, number>,
  proposalOf: (item: string) => string,
): Map<string, ProposalGold> {
  const byItem = new Map<string, number[]>();
  for (const r of ratings) {
    let grades = byItem.get(r.item);
    if (!grades) byItem.set(r.item, (grades = []));
    grades.push(r.grade);
  }
  const byProposal = new Map<string, string[]>();
  for (const item of [...byItem.keys()].sort()) {
    const p = proposalOf(item);
    byProposal.set(p, [...(byProposal.get(p) ?? []), item]);
  }
  return new Map(
    [...byProposal]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([proposal, items]) => {
        const gold = items.filter((item) => truth.has(item));
        const agreement = goldAgreement(
          gold.map((item) => mean(byItem.get(item)!)),
          gold.map((item) => truth.get(item)!),
        );
        let ss = 0;
        let df = 0;
        for (const item of items) {
          const grades = byItem.get(item)!;
          if (grades.length >= 2) {
            ss += (grades.length - 1) * variance(grades);
            df += grades.length - 1;
          }
        }
        const minJudgements = Math.min(...items.map((item) => byItem.get(item)!.length));
        return [
          proposal,
          { ...agreement, items: items.length, minJudgements, pooledVariance: df > 0 ? ss / df : null },
        ];
      }),
  );
}
