import type { GradedRating } from "./aggregate";
import { proposalGoldAgreement } from "./gold";
import { cosineSimilarities } from "./tfidf";
import { lowerMedian, mean, variance } from "../stats/quantile";
import { welchTTest } from "../stats/t-test";

/** An item (a proposal's candidate) and the text its experts saw: the candidate's public profile. */
export interface ItemText {
  item: string;
  proposal: string;
  text: string;
}

/** A grade at or above this is relevant (Assay's 1–4 scale: 3 relevant, 4 highly relevant). */
export const RELEVANT_GRADE = 3;

export interface SimilaritySummary {
  pairs: number;
  mean: number | null;
  /** Sample standard deviation (n − 1); null below 2 pairs. */
  sd: number | null;
}

export interface ProposalClustering {
  proposal: string;
  /** Items with a text and a label; of them, relevant ones. */
  items: number;
  relevant: number;
  /** Similarities of pairs of relevant items. */
  inner: SimilaritySummary;
  /** Similarities of pairs of one relevant and one not-relevant item. */
  outer: SimilaritySummary;
  /** Welch's t-test of inner against outer (scipy `ttest_ind(inner, outer, equal_var=False)`). */
  tStatistic: number | null;
  df: number | null;
  pValue: number | null;
  /** The inner mean is not above the outer: items that read alike are not judged more alike here. */
  flagged: boolean;
  /** Pooled within-item variance of grades, Σ(n_i − 1)s_i² / Σ(n_i − 1); null when no item has 2 grades. */
  pooledVariance: number | null;
  /** Grades per item (graded items of the proposal): mean and fewest. */
  meanGrades: number;
  minGrades: number;
  /** Gold items of the proposal, and the mean of (average grade − truth) over them with its t-test. */
  gold: number;
  truthDifference: number | null;
  /** Its 95% t interval (null below 2 gold items or without spread, as the t-test). */
  truthDifferenceCi: { lower: number; upper: number } | null;
  truthT: number | null;
  truthP: number | null;
}

function summary(values: number[]): SimilaritySummary {
  return {
    pairs: values.length,
    mean: values.length ? mean(values) : null,
    sd: values.length >= 2 ? Math.sqrt(variance(values)) : null,
  };
}

/**
 * The clustering hypothesis per proposal: are items that read alike judged alike? An item's label is
 * its truth where known, else the lower median of its grades (Assay's label); relevant = label ≥ 3.
 * Within each proposal, the TF-IDF cosine similarity (`tfidf.ts`) of every pair of its labelled items
 * is "inner" when both are relevant and "outer" when exactly one is; pairs of two not-relevant items
 * are in neither. Items without a text are left out; proposals come back sorted by id.
 */
export function clusteringHypothesis(
  texts: readonly ItemText[],
  ratings: readonly GradedRating[],
  truth: ReadonlyMap<string, number> | null,
): ProposalClustering[] {
  const grades = new Map<string, number[]>();
  for (const r of ratings) grades.set(r.item, [...(grades.get(r.item) ?? []), r.grade]);
  const proposalOf = new Map(texts.map((t) => [t.item, t.proposal]));
  const graded = ratings.filter((r) => proposalOf.has(r.item));
  const perProposal = proposalGoldAgreement(graded, truth ?? new Map(), (item) => proposalOf.get(item)!);
  const byProposal = new Map<string, ItemText[]>();
  for (const t of texts) byProposal.set(t.proposal, [...(byProposal.get(t.proposal) ?? []), t]);
  const labelOf = (item: string) => {
    const g = grades.get(item);
    return truth?.get(item) ?? (g?.length ? lowerMedian(g) : null);
  };
  return [...byProposal.keys()].sort().map((proposal) => {
    const labelled = byProposal.get(proposal)!.filter((t) => labelOf(t.item) !== null);
    const relevant = labelled.map((t) => labelOf(t.item)! >= RELEVANT_GRADE);
    const sim = cosineSimilarities(labelled.map((t) => t.text));
    const n = labelled.length;
    const inner: number[] = [];
    const outer: number[] = [];
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (relevant[i] && relevant[j]) inner.push(sim[i * n + j]);
        else if (relevant[i] !== relevant[j]) outer.push(sim[i * n + j]);
      }
    const test = welchTTest(inner, outer);
    const gradeCounts = byProposal.get(proposal)!.map((t) => grades.get(t.item)?.length ?? 0);
    const rated = gradeCounts.filter((c) => c > 0);
    const gold = perProposal.get(proposal);
    const innerSummary = summary(inner);
    const outerSummary = summary(outer);
    return {
      proposal,
      items: n,
      relevant: relevant.filter(Boolean).length,
      inner: innerSummary,
      outer: outerSummary,
      tStatistic: test?.tStatistic ?? null,
      df: test?.df ?? null,
      pValue: test?.pValue ?? null,
      flagged:
        innerSummary.mean !== null && outerSummary.mean !== null && innerSummary.mean <= outerSummary.mean,
      pooledVariance: gold?.pooledVariance ?? null,
      meanGrades: rated.length ? mean(rated) : 0,
      minGrades: rated.length ? Math.min(...rated) : 0,
      gold: gold?.gold ?? 0,
      truthDifference: gold?.meanDifference ?? null,
      truthDifferenceCi: gold?.meanDifferenceCi ?? null,
      truthT: gold?.tStatistic ?? null,
      truthP: gold?.pValue ?? null,
    };
  });
}
