import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { cdfWithBand, sharedHistogram } from "~/utils/chart-data";
import { formatCount, formatRate } from "~/utils/format";
import type { Report } from "./cells";

const rate = (v: unknown) => formatRate(v as number | null);
const count = (v: unknown) => formatCount(v as number | null);

const kHitBins = (report: Report) =>
  sharedHistogram(report.systems.map((s) => ({ name: s.name, values: s.kHitValues })));
const kHitCdf = (report: Report) =>
  cdfWithBand(report.systems.map((s) => ({ name: s.name, values: s.kHitValues, total: s.proposals })));

/** Where each system's first committee member lands: one histogram panel per system on shared bins. */
export function KHitHistogram({ report }: { report: Report }) {
  const systems = report.systems.map((s) => s.name);
  const series = plottedSeries(kHitBins(report), (b) => b.series, {
    hasValue: (b) => b.count > 0,
    order: systems,
  });
  return (
    <Chart
      legend={series}
      title="K_hit histogram, one panel per system"
      caption="K_hit: the rank of the first committee member in each proposal's list, one panel per system on the same bins (proposals with no committee member in the list are left out)."
      deps={[report]}
      table={{
        columns: [
          { key: "series", label: "System" },
          { key: "from", label: "Rank from" },
          { key: "to", label: "Rank below" },
          { key: "count", label: "Proposals", format: count },
        ],
        rows: kHitBins(report),
      }}
      build={(Plot) => {
        const bins = kHitBins(report);
        return {
          height: 60 + 130 * systems.length,
          x: { label: "rank of the first committee member" },
          y: { label: "proposals", grid: true },
          fy: { label: null, axis: null, domain: systems },
          color: seriesScale(series),
          marks: [
            Plot.rectY(bins, {
              x1: "from",
              x2: "to",
              y: "count",
              fy: "series",
              fill: "series",
              inset: 0.5,
            }),
            Plot.ruleY([0]),
            Plot.text(systems, {
              fy: (d: string) => d,
              text: (d: string) => d,
              frameAnchor: "top-right",
              dy: 2,
              dx: -4,
            }),
          ],
        };
      }}
    />
  );
}

/** The K_hit cumulative distribution with its simultaneous band and the 90% line (the display depth). */
export function KHitCdf({ report }: { report: Report }) {
  const points = kHitCdf(report);
  const series = [
    ...plottedSeries(points, (p) => p.series),
    { key: "90%", label: "dashed: 90% of proposals", color: "currentColor", dash: "4 3" },
  ];
  return (
    <Chart
      legend={series}
      title="K_hit CDF with 95% band"
      caption="Share of proposals whose first committee member appears by each rank (the K_hit cumulative distribution), with a simultaneous 95% band (Dvoretzky–Kiefer–Wolfowitz); where it crosses the dashed 90% line is the suggested display depth."
      deps={[report]}
      table={{
        columns: [
          { key: "series", label: "System" },
          { key: "value", label: "Rank" },
          { key: "share", label: "Share by this rank", format: rate },
          { key: "lower", label: "95% band lower", format: rate },
          { key: "upper", label: "95% band upper", format: rate },
        ],
        rows: kHitCdf(report),
      }}
      build={(Plot) => {
        return {
          x: { label: "rank" },
          y: { label: "share of proposals", domain: [0, 1], tickFormat: "%", grid: true },
          color: seriesScale(series),
          marks: [
            Plot.areaY(points, {
              x: "value",
              y1: "lower",
              y2: "upper",
              fill: "series",
              fillOpacity: 0.15,
              curve: "step-after",
            }),
            Plot.lineY(points, { x: "value", y: "share", stroke: "series", curve: "step-after" }),
            Plot.ruleY([0.9], { strokeDasharray: "4 3" }),
          ],
        };
      }}
    />
  );
}
