import { measureDisplay } from "../../scripts/eval/registry";
import type { Direction, MetricKind } from "./format";

/**
 * How a metric is shown: its display name, its kind (which decides its unit) and which way is better.
 * Ranking measures (ir_measures names such as `Success@10`) are shown as their entry in the measure
 * registry (scripts/eval/registry) says; the online report's, the click models' and the exposure
 * figures are listed here. The dashboards show the display name and keep the code name findable
 * (table filters match both).
 */
export interface MetricDisplay {
  /** The name the computation uses: `Success@10`, `adoptionRate`. */
  code: string;
  /** The name a reader sees: `HR@10`, "Adoption rate". */
  label: string;
  kind: MetricKind;
  direction: Direction;
  /** A short sentence for tooltips and captions, where the name alone does not say it. */
  description?: string;
}

type Rule = { pattern: RegExp; display: (m: RegExpMatchArray) => Omit<MetricDisplay, "code"> };

/** The online report's metrics, by their code name. */
const online: Record<string, Omit<MetricDisplay, "code">> = {
  ctr: { label: "CTR", kind: "rate", direction: "higher", description: "clicks per candidate shown" },
  adoptionRate: {
    label: "Adoption rate",
    kind: "rate",
    direction: "higher",
    description: "adoptions per candidate shown",
  },
  meanAdoptedRank: {
    label: "Mean adopted rank",
    kind: "rank",
    direction: "lower",
    description: "mean position of adopted candidates; lower is better",
  },
  sessionSuccessRate: {
    label: "Session success rate",
    kind: "rate",
    direction: "higher",
    description: "sessions with at least one adoption",
  },
};

/** An interleaving or multileaving snapshot's figures (scripts/results/rows.ts `interleavingRows`). */
const interleaving: Record<string, Omit<MetricDisplay, "code">> = {
  winRate: {
    label: "Win rate",
    kind: "rate",
    direction: "higher",
    description: "the challenger's (wins + ties / 2) / decided sessions",
  },
  preferenceShare: {
    label: "Preference share",
    kind: "rate",
    direction: "higher",
    description: "sessions preferring the system over the other, among those with a preference",
  },
  wins: { label: "Wins", kind: "count", direction: "higher" },
  losses: { label: "Losses", kind: "count", direction: "lower" },
  ties: { label: "Ties", kind: "count", direction: "higher" },
  noPreference: { label: "Sessions without preference", kind: "count", direction: "lower" },
  sessions: { label: "Sessions", kind: "count", direction: "higher" },
  signTestP: { label: "Sign test p", kind: "score", direction: "lower" },
  copeland: { label: "Copeland score", kind: "score", direction: "higher" },
  rank: { label: "Rank", kind: "rank", direction: "lower" },
  meanShare: { label: "Mean preference share", kind: "rate", direction: "higher" },
};

/** The click-model page's figures (scripts/clicks/experiment-report.ts), by their code name. */
const clickModels: Record<string, Omit<MetricDisplay, "code">> = {
  logLikelihood: {
    label: "Log-likelihood",
    kind: "score",
    direction: "higher",
    description: "mean per session of ln P(clicks), on held-out sessions",
  },
  perplexity: {
    label: "Perplexity",
    kind: "score",
    direction: "lower",
    description: "2 to the minus mean log2 probability of each click value; 1 is perfect",
  },
  ctrPredictionRmse: {
    label: "CTR@1 RMSE",
    kind: "score",
    direction: "lower",
    description: "error of the predicted click rate at rank 1 (Chapelle's protocol)",
  },
  relevanceAuc: {
    label: "Relevance AUC",
    kind: "score",
    direction: "higher",
    description: "how well the model's relevance separates committee members",
  },
  rankingNdcg5: {
    label: "nDCG@5 (click model)",
    kind: "score",
    direction: "higher",
    description: "the ranking by the model's relevance against the committees",
  },
  trainSeconds: { label: "Training time (s)", kind: "score", direction: "lower" },
  examination: {
    label: "Examination",
    kind: "rate",
    direction: "higher",
    description: "PBM's probability that rank r is looked at, relative to rank 1",
  },
  ctrTop10: {
    label: "CTR (top 10)",
    kind: "rate",
    direction: "higher",
    description: "clicks per result shown in the first ten of a session's first impression",
  },
  correctedCtr: {
    label: "Position-corrected CTR",
    kind: "rate",
    direction: "higher",
    description: "clicks weighted by 1 / examination at their rank, per result shown",
  },
  displayDepth: {
    label: "Display depth (K_hit p90)",
    kind: "rank",
    direction: "lower",
    description: "the arm's system's K_hit 90th percentile, rounded up",
  },
  kHitP90: {
    label: "K_hit p90",
    kind: "rank",
    direction: "lower",
    description: "the arm's system's K_hit 90th percentile, with the offline page's interval",
  },
};

/** The offline report's exposure figures (scripts/offline/exposure.ts), matched in order. */
const rules: Rule[] = [
  {
    // The spread across proposals of any offline measure (scripts/results/rows.ts names it `SD <code>`).
    pattern: /^SD (.+)$/,
    display: (m) => ({
      label: `SD of ${metricLabel(m[1])}`,
      kind: "score",
      direction: "lower",
      description: "sample SD across proposals of each proposal's value",
    }),
  },
  {
    pattern: /^Latency(P50|P95|Max)$/,
    display: (m) => ({
      label: `Latency ${m[1].toLowerCase()} (ms)`,
      kind: "score",
      direction: "lower",
      description: "prediction time per list, as the system's team measured it",
    }),
  },
  {
    pattern: /^(BuildSeconds|MemoryMb)$/,
    display: (m) => ({
      label: m[1] === "BuildSeconds" ? "Build time (s)" : "Memory (MB)",
      kind: "score",
      direction: "lower",
      description: "what building the system took, as its team reported it",
    }),
  },
  {
    pattern: /^WeightShare$/,
    display: () => ({
      label: "Weight share",
      kind: "rate",
      direction: "higher",
      description: "the subject's proposals over all evaluated proposals",
    }),
  },
  {
    pattern: /^K_hit (median|p90)$/,
    display: (m) => ({
      label: `K_hit ${m[1]}`,
      kind: "rank",
      direction: "lower",
      description: "rank of the first committee member, over proposals with one",
    }),
  },
  {
    pattern: /^PredictionCoverage$/i,
    display: () => ({
      label: "Prediction coverage",
      kind: "rate",
      direction: "higher",
      description: "share of proposals with a non-empty list",
    }),
  },
  {
    pattern: /^LongTailShare@(\d+)$/i,
    display: (m) => ({
      label: `Long-tail share@${m[1]}`,
      kind: "rate",
      direction: "higher",
      description: "top-K places outside the most-recommended 20% of the catalog",
    }),
  },
  {
    pattern: /^Gini@(\d+)$/i,
    display: (m) => ({
      label: `Gini of exposure@${m[1]}`,
      kind: "score",
      direction: "lower",
      description: "how unequally top-K places spread over the catalog",
    }),
  },
  {
    pattern: /^SubjectEntropy@(\d+)$/i,
    display: (m) => ({
      label: `Subject entropy@${m[1]}`,
      kind: "score",
      direction: "higher",
      description: "bits of subject mix in each top K",
    }),
  },
];

/** How to show a metric, from its code name; an unknown name shows as itself, a score where higher is better. */
export function metricDisplay(code: string): MetricDisplay {
  if (online[code]) return { code, ...online[code] };
  if (clickModels[code]) return { code, ...clickModels[code] };
  if (interleaving[code]) return { code, ...interleaving[code] };
  const measure = measureDisplay(code);
  if (measure) return { code, ...measure };
  for (const rule of rules) {
    const m = code.match(rule.pattern);
    if (m) return { code, ...rule.display(m) };
  }
  return { code, label: code, kind: "score", direction: "higher" };
}

/** The display name of a metric (`Success@10` → `HR@10`). */
export const metricLabel = (code: string) => metricDisplay(code).label;

/** "lower is better" or "higher is better", for axis labels and captions. */
export const directionText = (direction: Direction) =>
  direction === "lower" ? "lower is better" : "higher is better";

const DIFFERENCE = " difference";

/**
 * A measure as `resultRows` names it (a metric, or `adoptionRate difference` for an arm vs control), with
 * its display name and how to show its values.
 */
export function rowMeasure(measure: string): MetricDisplay & { isDifference: boolean } {
  const isDifference = measure.endsWith(DIFFERENCE);
  const d = metricDisplay(isDifference ? measure.slice(0, -DIFFERENCE.length) : measure);
  return { ...d, code: measure, label: isDifference ? `${d.label}${DIFFERENCE}` : d.label, isDifference };
}
