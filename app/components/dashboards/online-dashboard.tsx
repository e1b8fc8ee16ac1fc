import type { OnlineReport } from "../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { AllFiguresTable } from "~/components/all-figures-table";
import { formatCount } from "~/utils/format";
import { ExcludedUnitsNotice, SampleRatioNotice } from "./online/sample-ratio";
import { ArmsTable } from "./online/arms-table";
import { ForestPlot } from "./online/forest-plot";
import { DifferencesTable } from "./online/differences-table";
import { DailyCharts, type DailyPoint } from "./online/daily-charts";
import { DataQuality, type LiveCounts } from "./online/data-quality";

export { metricLabels } from "./online/labels";
export type { DailyPoint } from "./online/daily-charts";

/**
 * The tier-3 dashboard drawn from an online report: the live page passes the report it just
 * computed (with the counts and unknown ids only live data has), an opened snapshot the stored one.
 */
export function OnlineDashboard({
  report,
  daily,
  control,
  live,
}: {
  report: Json<OnlineReport>;
  daily: DailyPoint[] | undefined;
  control: string;
  live?: LiveCounts;
}) {
  return (
    <>
      <SampleRatioNotice report={report} />
      <ExcludedUnitsNotice report={report} />
      <ArmsTable report={report} control={control} />
      <h2>Differences vs control</h2>
      <p className="muted" id="interval-kind">
        {report.intervals === "sequential"
          ? `Intervals of the differences: sequential (always valid: GrowthBook's confidence sequences, N* = ${formatCount(report.nStar)} conveners), so a look every day does not inflate false positives; read the verdicts from them. The arms' own intervals above are bootstrap intervals. No p is shown: the permutation p is valid for one look only and would contradict these intervals.`
          : "Intervals of the differences: fixed (95% cluster bootstrap over conveners), valid for one look at the end; looking every day and stopping at the first clear day inflates false positives."}
      </p>
      <div className="side-by-side">
        <ForestPlot report={report} />
        <DifferencesTable report={report} />
      </div>
      {daily?.length ? (
        <>
          <h2>Day by day</h2>
          <DailyCharts daily={daily} />
        </>
      ) : null}
      <h2>Data quality</h2>
      <DataQuality report={report} live={live} />
      <h2>Every figure</h2>
      <AllFiguresTable
        rows={resultRows("online", report)}
        caption="Every online figure"
        fileName="online-figures.csv"
      />
    </>
  );
}
