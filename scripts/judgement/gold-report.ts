import { DEFAULT_SEED } from "../lib/defaults";
import { createRng } from "../lib/random";
import {
  aggregateItems,
  aggregationAccuracy,
  type AggregationMethod,
  type GradedRating,
  type MethodAccuracy,
} from "./aggregate";
import { type BootstrapOptions } from "../stats/bootstrap";
import { proposalGoldAgreement, raterGoldAgreement, type GoldAgreement, type ProposalGold } from "./gold";
import {
  learningCurves,
  type CurvePoint,
  type LearningCurve,
  type LearningCurveOptions,
} from "./learning-curve";

export interface GoldReportOptions extends BootstrapOptions {
  methods: readonly AggregationMethod[];
  /** Break majority ties with a coin seeded from `seed` (else they are undecided and count as wrong). */
  coinTies?: boolean;
  /** Random draws of n raters per point of the learning curves (default 1,000). */
  draws?: number;
  onProgress?: (done: number, total: number) => void;
  /** The learning curves, computed already (on threads, say: scripts/workers/learning-curves.ts). */
  curves?: Map<AggregationMethod, LearningCurve>;
}

export interface GoldReport {
  goldItems: number;
  raters: Record<string, GoldAgreement>;
  /** Only when every item is named `proposal:candidate`. */
  proposals?: Record<string, ProposalGold>;
  aggregation: Partial<Record<AggregationMethod, MethodAccuracy>>;
  learningCurve: Partial<Record<AggregationMethod, CurvePoint[]>>;
  /** Per method: the all-rater accuracy and the fewest raters per item reaching 95% of it. */
  enoughRaters: Partial<Record<AggregationMethod, { allRaters: number; suggestedN: number | null }>>;
}

/**
 * Everything `assay agreement --truth` adds: per-rater gold agreement, per-proposal average-vote
 * agreement, each aggregation's gold accuracy with a bootstrap CI, and the learning curves.
 */
export function goldReport(
  ratings: readonly GradedRating[],
  truth: ReadonlyMap<string, number>,
  options: GoldReportOptions,
): GoldReport {
  const seed = options.seed ?? DEFAULT_SEED;
  const labels = new Map(
    options.methods.map((m) => [
      m,
      aggregateItems(ratings, m, { coin: options.coinTies ? createRng(`${seed}:ties`) : undefined }),
    ]),
  );
  const curves = options.curves ?? learningCurves(ratings, options.methods, truth, curveOptions(options));
  const byProposal = ratings.every((r) => r.item.includes(":"))
    ? Object.fromEntries(proposalGoldAgreement(ratings, truth, (item) => item.slice(0, item.indexOf(":"))))
    : undefined;
  return {
    goldItems: truth.size,
    raters: Object.fromEntries(raterGoldAgreement(ratings, truth)),
    ...(byProposal ? { proposals: byProposal } : {}),
    aggregation: Object.fromEntries(aggregationAccuracy(labels, truth, options)),
    learningCurve: Object.fromEntries([...curves].map(([m, c]) => [m, c.points])),
    enoughRaters: Object.fromEntries(
      [...curves].map(([m, c]) => [m, { allRaters: c.allRaters, suggestedN: c.suggestedN }]),
    ),
  };
}

/** The learning curves' options in a gold report: its draws, coin and progress, and a seed of their own. */
export function curveOptions(options: GoldReportOptions): LearningCurveOptions {
  return {
    draws: options.draws,
    seed: `${options.seed ?? DEFAULT_SEED}:curves`,
    coinTies: options.coinTies,
    onProgress: options.onProgress,
  };
}
