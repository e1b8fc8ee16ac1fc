import { onlineMetrics, type OnlineReport } from "../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { Chart } from "~/components/chart";
import { UnknownIds } from "~/components/unknown-ids";
import { AllFiguresTable } from "~/components/all-figures-table";
import {
  formatCi,
  formatCount,
  formatDifference,
  formatLift,
  formatNumber,
  formatP,
  formatRate,
  formatValue,
  verdict,
  type Verdict,
} from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { VerdictLabel } from "./verdict";
import { TableScroll } from "~/components/table-scroll";

/** The online metrics' display names, from the one registry. */
export const metricLabels: Record<string, string> = Object.fromEntries(
  onlineMetrics.map((m) => [m, metricDisplay(m).label]),
);
const fmt = (v: number | null | undefined, m: string) => formatValue(v, metricDisplay(m).kind);
/** The forest plot's colours: the same as the verdict words in the table beside it. */
const VERDICT_COLOURS: Record<Verdict, string> = {
  better: "#1a7f37",
  worse: "#b42318",
  inconclusive: "#59636e",
};

export interface DailyPoint {
  day: string;
  arms: Record<string, Record<string, number | null>>;
  /** Pointwise 95% intervals (scripts/online/daily-intervals.ts); absent in snapshots frozen before them. */
  ci?: Record<string, Record<string, { lower: number; upper: number } | null>>;
}

/** The forest plot's rows: one per metric and arm, the label saying which way is better where lower is. */
function forestRows(report: Json<OnlineReport>) {
  return report.comparisons.map((c) => {
    const d = metricDisplay(c.metric);
    return {
      label: `${d.label} (${c.arm})`,
      direction: d.direction === "lower" ? directionText(d.direction) : "",
      lift: c.relativeLift,
      lower: c.liftCi?.lower ?? null,
      upper: c.liftCi?.upper ?? null,
      verdict: verdict(c.difference, c.ci, d.direction),
    };
  });
}

/** The day-by-day points of one metric, per arm, with their intervals when the series has them. */
function dailyPoints(daily: DailyPoint[], metric: string) {
  return daily.flatMap((d) =>
    Object.entries(d.arms).map(([arm, m]) => ({
      day: new Date(d.day),
      arm,
      value: m[metric],
      lower: d.ci?.[arm]?.[metric]?.lower ?? null,
      upper: d.ci?.[arm]?.[metric]?.upper ?? null,
    })),
  );
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
  live?: {
    exposedUnits: number;
    unknown: {
      proposals: number;
      candidates: number;
      proposalExamples: string[];
      candidateExamples: string[];
    };
  };
}) {
  return (
    <>
      {report.srm?.mismatch ? (
        <p className="notice error" role="alert">
          Sample-ratio mismatch (χ² = {formatNumber(report.srm.chi2)}, p{" "}
          {formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
          {formatP(report.srm.pValue)}): the split of conveners does not fit the configured weights. Do not
          trust the differences until this is explained.
        </p>
      ) : (
        <p className="notice success">
          No sample-ratio mismatch (p {report.srm && formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
          {formatP(report.srm?.pValue)}).
        </p>
      )}
      {report.excludedUnits > 0 ? (
        <p
          className={report.multipleExposureWarning ? "notice error" : "notice"}
          role={report.multipleExposureWarning ? "alert" : undefined}
        >
          {formatCount(report.excludedUnits)} convener(s) ({formatRate(report.excludedShare)}) were seen in
          more than one arm and are excluded from every metric.
        </p>
      ) : null}
      <TableScroll label="Arms with intervals">
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
      </TableScroll>
      <h2>Differences vs control</h2>
      <p className="muted" id="interval-kind">
        {report.intervals === "sequential"
          ? `Intervals of the differences: sequential (always valid: GrowthBook's confidence sequences, N* = ${formatCount(report.nStar)} conveners), so a look every day does not inflate false positives; read the verdicts from them. The arms' own intervals above are bootstrap intervals, and p is a one-look permutation test.`
          : "Intervals of the differences: fixed (95% cluster bootstrap over conveners), valid for one look at the end; looking every day and stopping at the first clear day inflates false positives."}
      </p>
      <div className="side-by-side">
        <Chart
          title="Forest plot: lift vs control"
          caption="Relative lift of each metric, arm vs control, with its 95% interval; an interval clear of zero is a difference the data support. Green is better, red worse, grey inconclusive; for mean adopted rank lower is better, so a negative lift is a gain."
          deps={[report]}
          table={{
            columns: [
              { key: "label", label: "Metric (arm)" },
              { key: "direction", label: "Direction" },
              { key: "lift", label: "Lift", format: (v) => formatLift(v as number | null) },
              { key: "lower", label: "95% CI lower", format: (v) => formatLift(v as number | null) },
              { key: "upper", label: "95% CI upper", format: (v) => formatLift(v as number | null) },
              { key: "verdict", label: "Verdict" },
            ],
            rows: forestRows(report),
          }}
          build={(Plot, { width }) => {
            const rows = forestRows(report);
            // The x domain holds every interval with room to spare, so none runs off the edge.
            const ends = rows
              .flatMap((r) => [r.lower, r.upper, r.lift])
              .filter((v): v is number => v !== null && Number.isFinite(v));
            const low = Math.min(0, ...ends);
            const high = Math.max(0, ...ends);
            const pad = (high - low || 0.1) * 0.08;
            // Labels above their interval on a narrow screen, beside it on a wide one: they never overlap.
            const narrow = width < 560;
            return {
              height: 50 + rows.length * (narrow ? 62 : 44),
              marginLeft: narrow ? 12 : 190,
              marginRight: 16,
              marginBottom: 44,
              x: {
                label: "relative lift vs control →",
                labelAnchor: "center",
                labelOffset: 36,
                tickFormat: "+.0%",
                grid: true,
                domain: [low - pad, high + pad],
                ticks: Math.max(3, Math.floor(width / 90)),
              },
              y: {
                label: null,
                axis: narrow ? null : "left",
                domain: rows.map((r) => r.label),
                padding: 0.5,
              },
              color: {
                domain: Object.keys(VERDICT_COLOURS),
                range: Object.values(VERDICT_COLOURS),
                legend: true,
              },
              marks: [
                Plot.ruleX([0]),
                Plot.ruleY(rows, { y: "label", x1: "lower", x2: "upper", stroke: "verdict", strokeWidth: 2 }),
                Plot.dot(rows, { y: "label", x: "lift", fill: "verdict", r: 4 }),
                narrow
                  ? Plot.text(rows, {
                      y: "label",
                      text: (r: { label: string; direction: string }) =>
                        `${r.label}${r.direction ? `, ${r.direction}` : ""}`,
                      frameAnchor: "left",
                      dy: -14,
                      textAnchor: "start",
                    })
                  : null,
                narrow
                  ? null
                  : Plot.text(
                      rows.filter((r) => r.direction),
                      {
                        y: "label",
                        text: "direction",
                        frameAnchor: "left",
                        dx: -8,
                        dy: 14,
                        textAnchor: "end",
                        fill: "#59636e",
                      },
                    ),
              ],
            };
          }}
        />
        <TableScroll label="Differences vs control">
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
                      <div className="muted">
                        {c.ci ? formatCi(c.ci, (x) => formatDifference(x, d.kind)) : ""}
                      </div>
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
        </TableScroll>
      </div>
      {daily?.length ? (
        <>
          <h2>Day by day</h2>
          <div className="side-by-side">
            {onlineMetrics.map((metric) => (
              <Chart
                key={metric}
                title={`Cumulative ${metricLabels[metric]}`}
                caption={`${metricLabels[metric]} per arm as it stood at the end of each day (cumulative: every session up to that day), with its pointwise 95% interval as a band (not adjusted for looking every day).`}
                deps={[daily]}
                table={{
                  columns: [
                    { key: "day", label: "Day" },
                    { key: "arm", label: "Arm" },
                    {
                      key: "value",
                      label: metricLabels[metric],
                      format: (v) => fmt(v as number | null, metric),
                    },
                    { key: "lower", label: "95% CI lower", format: (v) => fmt(v as number | null, metric) },
                    { key: "upper", label: "95% CI upper", format: (v) => fmt(v as number | null, metric) },
                  ],
                  rows: dailyPoints(daily, metric).map((p) => ({
                    ...p,
                    day: p.day.toISOString().slice(0, 10),
                  })),
                }}
                build={(Plot) => {
                  const points = dailyPoints(daily, metric);
                  return {
                    x: { label: "day", type: "utc" },
                    y:
                      metricDisplay(metric).kind === "rate"
                        ? {
                            label: `${metricLabels[metric]} (${directionText("higher")})`,
                            tickFormat: "%",
                            grid: true,
                          }
                        : {
                            label: `${metricLabels[metric]} (${directionText(metricDisplay(metric).direction)})`,
                            grid: true,
                          },
                    color: { legend: true },
                    marks: [
                      Plot.areaY(
                        points.filter((p) => p.lower !== null),
                        { x: "day", y1: "lower", y2: "upper", fill: "arm", fillOpacity: 0.15 },
                      ),
                      Plot.lineY(points, { x: "day", y: "value", stroke: "arm", marker: "dot" }),
                    ],
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
        <li>
          {formatCount(report.dataQuality.sessionsWithoutImpression)} sessions without an impression (left out
          of the metrics)
        </li>
        <li>
          {formatCount(report.dataQuality.eventsAboutUnshownCandidates)} events about candidates never shown
          in their session
        </li>
        <li>
          {formatCount(report.dataQuality.eventsOfExcludedUnits)} events of conveners seen in more than one
          arm (excluded)
        </li>
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
      <AllFiguresTable
        rows={resultRows("online", report)}
        caption="Every online figure"
        fileName="online-figures.csv"
      />
    </>
  );
}
