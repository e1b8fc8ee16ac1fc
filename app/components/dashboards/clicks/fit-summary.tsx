import { formatCount, formatValue } from "~/utils/format";
import type { ClicksFit, ClicksResult } from "./fit";

/** How the models were fitted: the sessions to fit and to test, the seed, EM and the relevance labels. */
export function FitSummary({ result, fit }: { result: ClicksResult; fit: ClicksFit }) {
  const { settings } = result;
  return (
    <p className="muted">
      {formatCount(result.sessions)} sessions: {formatCount(fit.train)} to fit, {formatCount(fit.test)} to
      test (seed “{settings.seed}”, {formatValue(settings.testShare, "rate")} held out
      {fit.dropped
        ? `; ${formatCount(fit.dropped)} test sessions dropped, their proposal never shown in training`
        : ""}
      ). Textbook EM, {settings.iterations} iterations, ranks 1–{settings.maxRank} of each session’s first
      impression.{" "}
      {fit.labels
        ? `Relevance labels: the historical committees of ${formatCount(fit.labels.proposals)} proposals (members relevant, other candidates shown not).`
        : "No relevance labels: no proposal shown has a historical committee."}{" "}
      {settings.B
        ? `Intervals: 95% percentile bootstrap over conveners (log-likelihood, perplexity, relevance AUC, CTRs) or over proposals (CTR@1 RMSE, nDCG@5, whose terms each belong to one proposal), B = ${formatCount(settings.B)}, seed “${settings.seed}”, with the fitted models (and, for the corrected CTRs, PBM’s curve) held fixed; the curve’s own interval refits PBM on each resample of the training conveners.`
        : ""}
    </p>
  );
}
