import type { GradedRating } from "./aggregate";
import { clusteringHypothesis, type ItemText, type ProposalClustering } from "./clustering";
import { textLearningCurves, type TextCurve } from "./text-curves";
import { textEstimators, type TextEstimator, type TextMethod } from "./text-estimates";

/** The fixed similarity s of the text-aware estimates unless one is given (beside the adaptive s(n)). */
export const DEFAULT_SIMILARITY = 0.3;

export interface TextReportOptions {
  estimators?: readonly TextEstimator[];
  /** The fixed s (each estimator is also run with the adaptive s(n)). */
  similarity?: number;
  /** join-until-n's required votes (default: the most votes any item has). */
  target?: number;
  draws?: number;
  seed?: string | number;
  coinTies?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface TextReport {
  /** Items with a text, and the similarity s used for the fixed variants. */
  items: number;
  similarity: number;
  /** How majority ties are scored in the curves. */
  majorityTies: "undecided" | "coin";
  clustering: ProposalClustering[];
  /** Majority vote first, then each estimator with the fixed s and with the adaptive s(n). */
  curves: TextCurve[];
  /** Every grade of the items (the base of "grades saved"). */
  grades: number;
}

/**
 * What the items' texts say about their labels: the clustering hypothesis per proposal and the
 * learning curves of the text-aware estimates against the gold items (`truth`).
 */
export function textReport(
  texts: readonly ItemText[],
  ratings: readonly GradedRating[],
  truth: ReadonlyMap<string, number>,
  options: TextReportOptions = {},
): TextReport {
  const similarity = options.similarity ?? DEFAULT_SIMILARITY;
  const methods: TextMethod[] = (options.estimators ?? textEstimators).flatMap((estimator) => [
    { estimator, similarity },
    { estimator, similarity: "adaptive" as const },
  ]);
  const { curves, grades } = textLearningCurves(ratings, texts, truth, {
    methods,
    target: options.target,
    draws: options.draws,
    seed: options.seed,
    coinTies: options.coinTies,
    onProgress: options.onProgress,
  });
  return {
    items: texts.length,
    similarity,
    majorityTies: options.coinTies ? "coin" : "undecided",
    clustering: clusteringHypothesis(texts, ratings, truth.size ? truth : null),
    curves,
    grades,
  };
}
