import type { SerializeFrom } from "@remix-run/node";
import { onlineMetrics } from "../../../scripts/online/report";
import { UnknownIds } from "~/components/unknown-ids";
import { VerdictLabel } from "~/components/dashboards/verdict";
import { TableScroll } from "~/components/table-scroll";
import type { experimentDashboard } from "~/results/dashboards.server";
import {
  formatCi,
  formatCount,
  formatDifference,
  formatLift,
  formatNumber,
  formatP,
  formatRate,
  verdict,
} from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";

type Dashboard = SerializeFrom<typeof experimentDashboard>;
type Report = NonNullable<Dashboard["report"]>;

// Every number through the one formatting module, every metric name through the one registry.
const pct = formatRate;
const num = (v: number | null | undefined) => formatNumber(v);
const labels: Record<string, string> = Object.fromEntries(
  onlineMetrics.map((m) => [m, metricDisplay(m).label]),
);
const asRate = (m: string) => metricDisplay(m).kind === "rate";

/** A sample-ratio mismatch and units seen in more than one arm: said before any figure. */
function ReportWarnings({ report }: { report: Report | null }) {
  return (
    <>
      {report?.srm?.mismatch ? (
        <p className="notice error" role="alert">
          Sample-ratio mismatch: the units per arm do not fit the configured weights (χ² ={" "}
          {formatNumber(report.srm.chi2)}, p {formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
          {formatP(report.srm.pValue)}). Check the assignment before reading the results.
        </p>
      ) : null}
      {report?.multipleExposureWarning ? (
        <p className="notice error" role="alert">
          {pct(report.excludedShare)} of units were seen in more than one arm and are excluded from every
          metric.
        </p>
      ) : null}
    </>
  );
}

/** Each arm's exposure, sessions, events and metrics with their intervals. */
function ArmsTable({ counts, report, control }: Pick<Dashboard, "counts" | "report" | "control">) {
  return (
    <TableScroll label="Arms">
      <table aria-label="Arms">
        <thead>
          <tr>
            <th>Arm</th>
            <th className="num">Exposed units</th>
            <th className="num">Units with sessions</th>
            <th className="num">Sessions</th>
            <th className="num">Events</th>
            {onlineMetrics.map((m) => (
              <th key={m} className="num">
                {labels[m]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {counts.map((c) => {
            const arm = report?.arms[c.arm];
            return (
              <tr key={c.arm} data-arm={c.arm}>
                <th scope="row">
                  {c.arm}
                  {c.arm === control ? " (control)" : ""}
                </th>
                <td className="num">{formatCount(c.exposedUnits)}</td>
                <td className="num">{formatCount(arm?.units ?? 0)}</td>
                <td className="num">{formatCount(arm?.sessions ?? 0)}</td>
                <td className="num">{formatCount(c.events)}</td>
                {onlineMetrics.map((m) => (
                  <td key={m} className="num">
                    {asRate(m) ? pct(arm?.[m]) : num(arm?.[m])}
                    <div className="muted">
                      {arm?.ci?.[m] ? formatCi(arm.ci[m], asRate(m) ? pct : num) : ""}
                    </div>
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Each challenger arm against the control, per metric: difference, interval, lift, p and verdict. */
function DifferencesTable({ report }: { report: Report }) {
  return (
    <TableScroll label="Differences vs control">
      <table aria-label="Differences vs control">
        <thead>
          <tr>
            <th>Arm</th>
            <th>Metric</th>
            <th className="num">Difference</th>
            <th className="num">95% CI</th>
            <th className="num">Relative lift (95% CI)</th>
            <th className="num">p (permutation over units)</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {report.comparisons.map((c) => (
            <tr key={`${c.arm}-${c.metric}`}>
              <td>{c.arm}</td>
              <td>{labels[c.metric]}</td>
              <td className="num">{formatDifference(c.difference, metricDisplay(c.metric).kind)}</td>
              <td className="num">
                {formatCi(c.ci, (v) => formatDifference(v, metricDisplay(c.metric).kind))}
              </td>
              <td className="num">
                {formatLift(c.relativeLift)}
                <div className="muted">{c.liftCi ? formatCi(c.liftCi, formatLift) : ""}</div>
              </td>
              <td className="num">{formatP(c.pValue)}</td>
              <td>
                <VerdictLabel verdict={verdict(c.difference, c.ci, metricDisplay(c.metric).direction)} />
                {metricDisplay(c.metric).direction === "lower" ? (
                  <div className="muted">{directionText("lower")}</div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The experiment's results so far: warnings, the arms, data quality, and the differences vs control. */
export function ExperimentReport({
  counts,
  report,
  control,
  unknown,
}: Pick<Dashboard, "counts" | "report" | "control" | "unknown">) {
  return (
    <>
      <ReportWarnings report={report} />
      <h2>Arms</h2>
      <ArmsTable counts={counts} report={report} control={control} />
      {report ? (
        <>
          <p className="muted">
            SRM: χ² = {formatNumber(report.srm?.chi2)}, p{" "}
            {report.srm && formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
            {formatP(report.srm?.pValue)}. Units in more than one arm: {formatCount(report.excludedUnits)} (
            {pct(report.excludedShare)}). Data quality: {report.dataQuality.duplicateEvents} duplicate events,{" "}
            {report.dataQuality.sessionsWithoutImpression} sessions without an impression,{" "}
            {report.dataQuality.eventsAboutUnshownCandidates} events about candidates never shown;{" "}
            <UnknownIds unknown={unknown} />.
          </p>
          <h2>Differences vs control</h2>
          <DifferencesTable report={report} />
        </>
      ) : (
        <div className="empty">
          No events yet. Conveners' interactions, the event API and `assay events import` fill this page.
        </div>
      )}
    </>
  );
}
