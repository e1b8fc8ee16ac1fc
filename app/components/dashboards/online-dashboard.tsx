import { onlineMetrics, type OnlineReport } from "../../../scripts/metrics/online";
import type { Json } from "~/utils/json-type";
import { resultRows } from "~/utils/result-rows";
import { Chart } from "~/components/chart";
import { UnknownIds } from "~/components/unknown-ids";
import { AllFiguresTable } from "~/components/all-figures-table";

export const metricLabels: Record<string, string> = { ctr: "CTR", adoptionRate: "Adoption rate", meanAdoptedRank: "Mean adopted rank", sessionSuccessRate: "Session success" };
const fmt = (v: number | null | undefined, m: string) => (v === null || v === undefined ? "—" : m === "meanAdoptedRank" ? v.toFixed(2) : `${(v * 100).toFixed(1)}%`);

export interface DailyPoint {
  day: string;
  arms: Record<string, Record<string, number | null>>;
}

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
  live?: { exposedUnits: number; unknown: { proposals: number; candidates: number; proposalExamples: string[]; candidateExamples: string[] } };
}) {
  return (
    <>
      {report.srm?.mismatch ? (
        <p className="notice error" role="alert">
          Sample-ratio mismatch (χ² = {report.srm.chi2.toFixed(2)}, p = {report.srm.pValue.toExponential(2)}): the split of conveners does not fit the configured weights. Do not trust the differences until this is explained.
        </p>
      ) : (
        <p className="notice success">No sample-ratio mismatch (p = {report.srm?.pValue.toPrecision(3) ?? "—"}).</p>
      )}
      {report.excludedUnits > 0 ? (
        <p className={report.multipleExposureWarning ? "notice error" : "notice"} role={report.multipleExposureWarning ? "alert" : undefined}>
          {report.excludedUnits} convener(s) ({(report.excludedShare * 100).toFixed(1)}%) were seen in more than one arm and are excluded from every metric.
        </p>
      ) : null}
      <table aria-label="Arms with intervals">
        <thead>
          <tr>
            <th>Arm</th>
            <th className="num">Conveners</th>
            <th className="num">Sessions</th>
            {onlineMetrics.map((m) => (
              <th key={m} className="num">
                {metricLabels[m]} (95% CI)
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Object.entries(report.arms).map(([arm, a]) => (
            <tr key={arm}>
              <th scope="row">
                {arm}
                {arm === control ? " (control)" : ""}
              </th>
              <td className="num">{a.units}</td>
              <td className="num">{a.sessions}</td>
              {onlineMetrics.map((m) => (
                <td key={m} className="num">
                  {fmt(a[m], m)}
                  <div className="muted">{a.ci?.[m] ? `${fmt(a.ci[m]!.lower, m)} – ${fmt(a.ci[m]!.upper, m)}` : ""}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Differences vs control</h2>
      <div className="side-by-side">
        <Chart
          caption="Relative lift of each metric, arm vs control, with its 95% interval; an interval clear of zero is a difference the data support."
          deps={[report]}
          build={(Plot) => {
            const rows = report.comparisons.map((c) => ({ label: `${metricLabels[c.metric]} (${c.arm})`, lift: c.relativeLift, lower: c.liftCi?.lower, upper: c.liftCi?.upper }));
            return {
              title: "Forest plot: lift vs control",
              marginLeft: 170,
              x: { label: "relative lift", tickFormat: "+%", grid: true },
              y: { label: null },
              marks: [Plot.ruleX([0]), Plot.ruleY(rows, { y: "label", x1: "lower", x2: "upper", strokeWidth: 2 }), Plot.dot(rows, { y: "label", x: "lift", fill: "currentColor", r: 4 })],
            };
          }}
        />
        <table aria-label="Differences vs control">
          <thead>
            <tr>
              <th>Metric</th>
              <th>Arm</th>
              <th className="num">Difference (95% CI)</th>
              <th className="num">Lift</th>
              <th className="num">p</th>
            </tr>
          </thead>
          <tbody>
            {report.comparisons.map((c) => (
              <tr key={`${c.metric}-${c.arm}`}>
                <td>{metricLabels[c.metric]}</td>
                <td>
                  {c.arm} vs {c.control}
                </td>
                <td className="num">
                  {c.difference === null ? "—" : c.metric === "meanAdoptedRank" ? c.difference.toFixed(2) : `${(c.difference * 100).toFixed(2)} pp`}
                  <div className="muted">{c.ci ? (c.metric === "meanAdoptedRank" ? `${c.ci.lower.toFixed(2)} – ${c.ci.upper.toFixed(2)}` : `${(c.ci.lower * 100).toFixed(2)} – ${(c.ci.upper * 100).toFixed(2)} pp`) : ""}</div>
                </td>
                <td className="num">{c.relativeLift === null ? "—" : `${c.relativeLift >= 0 ? "+" : ""}${(c.relativeLift * 100).toFixed(1)}%`}</td>
                <td className="num">{c.pValue === null ? "—" : c.pValue < 0.001 ? "< 0.001" : c.pValue.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {daily?.length ? (
        <>
          <h2>Day by day</h2>
          <div className="side-by-side">
            {onlineMetrics.map((metric) => (
              <Chart
                key={metric}
                caption={`${metricLabels[metric]} per arm as it stood at the end of each day (cumulative: every session up to that day).`}
                deps={[daily]}
                build={(Plot) => {
                  const points = daily.flatMap((d) => Object.entries(d.arms).map(([arm, m]) => ({ day: new Date(d.day), arm, value: m[metric] })));
                  return {
                    title: `Cumulative ${metric === "ctr" ? "CTR" : metricLabels[metric].toLowerCase()}`,
                    x: { label: "day", type: "utc" },
                    y: metric === "meanAdoptedRank" ? { label: "mean rank of adopted candidates", grid: true } : { label: metric === "ctr" ? "CTR" : metricLabels[metric].toLowerCase(), tickFormat: "%", grid: true },
                    color: { legend: true },
                    marks: [Plot.lineY(points, { x: "day", y: "value", stroke: "arm", marker: "dot" })],
                  };
                }}
              />
            ))}
          </div>
        </>
      ) : null}
      <h2>Data quality</h2>
      <ul>
        <li>{report.dataQuality.duplicateEvents} retried (duplicate) events counted once</li>
        <li>{report.dataQuality.sessionsWithoutImpression} sessions without an impression (left out of the metrics)</li>
        <li>{report.dataQuality.eventsAboutUnshownCandidates} events about candidates never shown in their session</li>
        <li>{report.dataQuality.eventsOfExcludedUnits} events of conveners seen in more than one arm (excluded)</li>
        {live ? (
          <>
            <li>
              <UnknownIds unknown={live.unknown} />
            </li>
            <li>{live.exposedUnits} conveners exposed in all</li>
          </>
        ) : null}
      </ul>
      <h2>Every figure</h2>
      <AllFiguresTable rows={resultRows("online", report)} caption="Every online figure" fileName="online-figures.csv" />
    </>
  );
}
