import type { OnlineReport } from "../../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { Chart, type ChartProps } from "~/components/chart";
import { plottedSeries, seriesScale, type Series } from "~/utils/chart-series";
import { formatLift, verdict, type Verdict } from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";

/** The forest plot's colours: the same as the verdict words in the table beside it. */
const VERDICT_COLOURS: Record<Verdict, string> = {
  better: "#1a7f37",
  worse: "#b42318",
  inconclusive: "#59636e",
};

const lift = (v: unknown) => formatLift(v as number | null);

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
type ForestRow = ReturnType<typeof forestRows>[number];

/** The verdicts drawn (a row without a lift draws nothing), in a fixed order, each in its colour. */
export function forestSeries(rows: ForestRow[]): Series[] {
  return plottedSeries(rows, (r) => r.verdict, {
    hasValue: (r) => r.lift !== null,
    order: Object.keys(VERDICT_COLOURS),
    color: (k) => VERDICT_COLOURS[k as Verdict],
  });
}

/** Each metric's relative lift vs control with its interval, coloured by verdict. */
export function ForestPlot({ report }: { report: Json<OnlineReport> }) {
  const series = forestSeries(forestRows(report));
  return (
    <Chart
      legend={series}
      title="Forest plot: lift vs control"
      caption="Relative lift of each metric, arm vs control, with its 95% interval; an interval clear of zero is a difference the data support. Green is better, red worse, grey inconclusive; for mean adopted rank lower is better, so a negative lift is a gain."
      deps={[report]}
      table={{
        columns: [
          { key: "label", label: "Metric (arm)" },
          { key: "direction", label: "Direction" },
          { key: "lift", label: "Lift", format: lift },
          { key: "lower", label: "95% CI lower", format: lift },
          { key: "upper", label: "95% CI upper", format: lift },
          { key: "verdict", label: "Verdict" },
        ],
        rows: forestRows(report),
      }}
      build={(Plot, { width }) => forestPlotOptions(Plot, forestRows(report), width, series)}
    />
  );
}

/** The plot itself: an x domain that holds every interval, labels placed for the width drawn at. */
function forestPlotOptions(
  Plot: Parameters<ChartProps["build"]>[0],
  rows: ForestRow[],
  width: number,
  series: Series[],
): ReturnType<ChartProps["build"]> {
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
    color: seriesScale(series),
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
}
