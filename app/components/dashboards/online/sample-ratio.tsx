import type { OnlineReport } from "../../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { formatCount, formatNumber, formatP, formatRate } from "~/utils/format";

/** Whether the split of conveners fits the configured weights (an alert when it does not). */
export function SampleRatioNotice({ report }: { report: Json<OnlineReport> }) {
  return report.srm?.mismatch ? (
    <p className="notice error" role="alert">
      Sample-ratio mismatch (χ² = {formatNumber(report.srm.chi2)}, p{" "}
      {formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
      {formatP(report.srm.pValue)}): the split of conveners does not fit the configured weights. Do not trust
      the differences until this is explained.
    </p>
  ) : (
    <p className="notice success">
      No sample-ratio mismatch (p {report.srm && formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
      {formatP(report.srm?.pValue)}).
    </p>
  );
}

/** The conveners seen in more than one arm, left out of every metric; nothing when there are none. */
export function ExcludedUnitsNotice({ report }: { report: Json<OnlineReport> }) {
  return report.excludedUnits > 0 ? (
    <p
      className={report.multipleExposureWarning ? "notice error" : "notice"}
      role={report.multipleExposureWarning ? "alert" : undefined}
    >
      {formatCount(report.excludedUnits)} convener(s) ({formatRate(report.excludedShare)}) were seen in more
      than one arm and are excluded from every metric.
    </p>
  ) : null;
}
