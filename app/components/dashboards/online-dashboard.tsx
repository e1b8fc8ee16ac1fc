import { onlineMetrics, type OnlineReport } from "../../../scripts/metrics/online";
import type { Json } from "~/utils/json-type";
import { resultRows } from "~/utils/result-rows";
import { Chart } from "~/components/chart";
import { UnknownIds } from "~/components/unknown-ids";
import { AllFiguresTable } from "~/components/all-figures-table";
import { formatCi, formatCount, formatDifference, formatLift, formatNumber, formatP, formatRate, formatValue, verdict, type Verdict } from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { VerdictLabel } from "./verdict";

/** The online metrics' display names, from the one registry. */
export const metricLabels: Record<string, string> = Object.fromEntries(onlineMetrics.map((m) => [m, metricDisplay(m).label]));
const fmt = (v: number | null | undefined, m: string) => formatValue(v, metricDisplay(m).kind);
/** The forest plot's colours: the same as the verdict words in the table beside it. */
const VERDICT_COLOURS: Record<Verdict, string> = { better: "#1a7f37", worse: "#b42318", inconclusive: "#59636e" };

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
          Sample-ratio mismatch (χ² = {formatNumber(report.srm.chi2)}, p {formatP(report.srm.pValue).startsWith("<") ? "" : "= "}{formatP(report.srm.pValue)}): the split of conveners does not fit the configured weights. Do not trust the differences until this is explained.
        </p>
      ) : (
        <p className="notice success">No sample-ratio mismatch (p {report.srm && formatP(report.srm.pValue).startsWith("<") ? "" : "= "}{formatP(report.srm?.pValue)}).</p>
      )}
      {report.excludedUnits > 0 ? (
        <p className={report.multipleExposureWarning ? "notice error" : "notice"} role={report.multipleExposureWarning ? "alert" : undefined}>
          {formatCount(report.excludedUnits)} convener(s) ({formatRate(report.excludedShare)}) were seen in more than one arm and are excluded from every metric.
        </p>
      ) : null}
      <div className="table-scroll">
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
              <td className="num">{formatCount(a.units)}</td>
              <td className="num">{formatCount(a.sessions)}</td>
              {onlineMetrics.map((m) => (
                <td key={m} className="num">
                  {fmt(a[m], m)}
                  <div className="muted">{a.ci?.[m] ? formatCi(a.ci[m], (v) => fmt(v, m)) : ""}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <h2>Differences vs control</h2>
      <p className="muted" id="interval-kind">
        {report.intervals === "sequential"
          ? `Intervals of the differences: sequential (always valid: GrowthBook's confidence sequences, N* = ${formatCount(report.nStar)} conveners), so a look every day does not inflate false positives; read the verdicts from them. The arms' own intervals above are bootstrap intervals, and p is a one-look permutation test.`
          : "Intervals of the differences: fixed (95% cluster bootstrap over conveners), valid for one look at the end; looking every day and stopping at the first clear day inflates false positives."}
      </p>
      <div className="side-by-side">
        <Chart
          caption="Relative lift of each metric, arm vs control, with its 95% interval; an interval clear of zero is a difference the data support. Green is better, red worse, grey inconclusive; for mean adopted rank lower is better, so a negative lift is a gain."
          deps={[report]}
          build={(Plot) => {
            const rows = report.comparisons.map((c) => {
              const d = metricDisplay(c.metric);
              const label = `${d.label} (${c.arm})${d.direction === "lower" ? `\n${directionText(d.direction)}` : ""}`;
              return { label, lift: c.relativeLift, lower: c.liftCi?.lower, upper: c.liftCi?.upper, verdict: verdict(c.difference, c.ci, d.direction) };
            });
            return {
              title: "Forest plot: lift vs control",
              marginLeft: 170,
              x: { label: "relative lift vs control", tickFormat: "+%", grid: true },
              y: { label: null },
              color: { domain: Object.keys(VERDICT_COLOURS), range: Object.values(VERDICT_COLOURS), legend: true },
              marks: [Plot.ruleX([0]), Plot.ruleY(rows, { y: "label", x1: "lower", x2: "upper", stroke: "verdict", strokeWidth: 2 }), Plot.dot(rows, { y: "label", x: "lift", fill: "verdict", r: 4 })],
            };
          }}
        />
        <div className="table-scroll">
        <table aria-label="Differences vs control">
          <thead>
            <tr>
              <th>Metric</th>
              <th className="num">Difference (95% CI)</th>
              <th className="num">Lift</th>
              <th className="num">p</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            {report.comparisons.map((c) => {
              const d = metricDisplay(c.metric);
              const v = verdict(c.difference, c.ci, d.direction);
              return (
                <tr key={`${c.metric}-${c.arm}`}>
                  <td>
                    {d.label}
                    <div className="muted">
                      {c.arm} vs {c.control}
                      {d.direction === "lower" ? `, ${directionText(d.direction)}` : ""}
                    </div>
                  </td>
                  <td className="num">
                    <span className={`verdict verdict-${v}`}>{formatDifference(c.difference, d.kind)}</span>
                    <div className="muted">{c.ci ? formatCi(c.ci, (x) => formatDifference(x, d.kind)) : ""}</div>
                  </td>
                  <td className="num">
                    <span className={`verdict verdict-${v}`}>{formatLift(c.relativeLift)}</span>
                  </td>
                  <td className="num">{formatP(c.pValue)}</td>
                  <td>
                    <VerdictLabel verdict={v} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        </div>
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
                    title: `Cumulative ${metricLabels[metric]}`,
                    x: { label: "day", type: "utc" },
                    y: metricDisplay(metric).kind === "rate" ? { label: `${metricLabels[metric]} (${directionText("higher")})`, tickFormat: "%", grid: true } : { label: `${metricLabels[metric]} (${directionText(metricDisplay(metric).direction)})`, grid: true },
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
        <li>{formatCount(report.dataQuality.duplicateEvents)} retried (duplicate) events counted once</li>
        <li>{formatCount(report.dataQuality.sessionsWithoutImpression)} sessions without an impression (left out of the metrics)</li>
        <li>{formatCount(report.dataQuality.eventsAboutUnshownCandidates)} events about candidates never shown in their session</li>
        <li>{formatCount(report.dataQuality.eventsOfExcludedUnits)} events of conveners seen in more than one arm (excluded)</li>
        {live ? (
          <>
            <li>
              <UnknownIds unknown={live.unknown} />
            </li>
            <li>{formatCount(live.exposedUnits)} conveners exposed in all</li>
          </>
        ) : null}
      </ul>
      <h2>Every figure</h2>
      <AllFiguresTable rows={resultRows("online", report)} caption="Every online figure" fileName="online-figures.csv" />
    </>
  );
}
