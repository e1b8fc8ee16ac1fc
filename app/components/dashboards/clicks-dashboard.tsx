import type { ExperimentClicksResult } from "../../../scripts/clicks/experiment-report";
import type { Json } from "~/utils/json-type";
import { formatCount } from "~/utils/format";
import { FitSummary } from "./clicks/fit-summary";
import { ModelsTable } from "./clicks/models-table";
import { PerplexityChart, PerplexityTable } from "./clicks/perplexity";
import { ExaminationChart, ExaminationNote, ExaminationTable } from "./clicks/examination";
import { CorrectedCtrTable } from "./clicks/corrected-ctr";

/**
 * An experiment's click models, drawn from `experimentClicks`'s result: the live page passes the result
 * it just computed, an opened `clicks` snapshot the stored one. Headings start at h2.
 */
export function ClicksDashboard({ result }: { result: Json<ExperimentClicksResult> }) {
  const { fit, settings } = result;
  if (!fit) {
    return (
      <div className="empty">
        Too few convener sessions to fit click models: {formatCount(result.sessions)} so far; the models need
        at least {formatCount(result.minSessions)} (a quarter is held out to test them).
      </div>
    );
  }
  return (
    <>
      <FitSummary result={result} fit={fit} />
      <h2>Models</h2>
      <ModelsTable fit={fit} />
      <p className="muted">
        Higher log-likelihood and lower perplexity fit the held-out clicks better; under each figure, its 95%
        interval. A dash is a measure without labels.
      </p>

      <h2>Fit at each rank</h2>
      <PerplexityChart fit={fit} maxRank={settings.maxRank} />
      <PerplexityTable fit={fit} />

      <h2>How far down conveners look</h2>
      <ExaminationChart fit={fit} maxRank={settings.maxRank} />
      <ExaminationTable fit={fit} />
      <ExaminationNote fit={fit} />

      <h2>CTR corrected for position</h2>
      <CorrectedCtrTable fit={fit} />
      <p className="muted">
        Each click counts 1 / examination at its rank (inverse propensity weighting): the CTR had every result
        been looked at as often as rank 1. Both columns count the first {settings.maxRank} results of each
        session’s first impression, so the raw CTR can differ from the experiment page’s, which counts every
        candidate shown. Under each, its 95% interval over the arm’s conveners; each difference is the arm
        minus the control arm, its interval from resampling both arms’ conveners.
      </p>
    </>
  );
}
