import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { formatNumber, formatRate } from "~/utils/format";
import { estimate, type Report } from "./cells";

const rate = (v: unknown) => formatRate(v as number | null);
const num = (v: unknown) => formatNumber(v as number | null);

/** The measure families drawn against K, each in its own panel. */
const families = [
  { label: "HR@K", name: (k: number) => `Success@${k}` },
  { label: "MRR@K", name: (k: number) => `RR@${k}` },
  { label: "HR(≥2)@K", name: (k: number) => `Success(g=2)@${k}` },
  { label: "HR(≥3)@K", name: (k: number) => `Success(g=3)@${k}` },
  { label: "Coverage@K", name: (k: number) => `Coverage@${k}` },
];

/** HR@K per system and K with its interval: the points of the first chart and its table. */
function hitRatePoints(report: Report) {
  return report.systems.flatMap((s) =>
    report.parameters.ks.map((k) => ({
      system: s.name,
      k,
      value: estimate(s, `Success@${k}`)?.value,
      lower: estimate(s, `Success@${k}`)?.ci?.lower,
      upper: estimate(s, `Success@${k}`)?.ci?.upper,
    })),
  );
}

/** Every family's value against K, per system, with intervals. */
function familyPoints(report: Report) {
  return report.systems.flatMap((s) =>
    families.flatMap((f) =>
      report.parameters.ks.map((k) => ({
        system: s.name,
        measure: f.label,
        k,
        value: estimate(s, f.name(k))?.value,
        lower: estimate(s, f.name(k))?.ci?.lower,
        upper: estimate(s, f.name(k))?.ci?.upper,
      })),
    ),
  );
}

/** HR@K against K per system, its interval as a band. */
export function HitRateChart({ report }: { report: Report }) {
  const points = hitRatePoints(report);
  const series = plottedSeries(points, (p) => p.system, { hasValue: (p) => p.value != null });
  return (
    <Chart
      legend={series}
      title="HR@K with 95% CI"
      caption="Hit rate by depth K with its 95% interval as a band, per system: the share of proposals with a committee member in the top K."
      deps={[report]}
      table={{
        columns: [
          { key: "system", label: "System" },
          { key: "k", label: "K" },
          { key: "value", label: "HR@K", format: rate },
          { key: "lower", label: "95% CI lower", format: rate },
          { key: "upper", label: "95% CI upper", format: rate },
        ],
        rows: hitRatePoints(report),
      }}
      build={(Plot) => {
        return {
          x: { label: "K (candidates shown)" },
          y: { label: "HR@K (higher is better)", domain: [0, 1], tickFormat: "%", grid: true },
          color: seriesScale(series),
          marks: [
            Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }),
            Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" }),
          ],
        };
      }}
    />
  );
}

/** Every measure family against K, one panel per family, intervals as vertical bars. */
export function MetricsAgainstKChart({ report }: { report: Report }) {
  const points = familyPoints(report);
  const series = plottedSeries(points, (p) => p.system, { hasValue: (p) => p.value != null });
  return (
    <Chart
      legend={series}
      title="Metrics against K"
      caption="Each measure against the depth K, one panel per measure, per system, with 95% intervals as vertical bars: where a system's advantage opens or closes with depth."
      deps={[report]}
      minWidth={640}
      table={{
        columns: [
          { key: "measure", label: "Measure" },
          { key: "system", label: "System" },
          { key: "k", label: "K" },
          { key: "value", label: "Value", format: num },
          { key: "lower", label: "95% CI lower", format: num },
          { key: "upper", label: "95% CI upper", format: num },
        ],
        rows: familyPoints(report),
      }}
      build={(Plot) => {
        return {
          height: 280,
          // Room for the y label above the facet names, which it overlapped.
          marginTop: 40,
          marginBottom: 40,
          fx: { label: null },
          x: { label: "K (candidates shown)" },
          y: { label: "value (higher is better)", domain: [0, 1], grid: true },
          color: seriesScale(series),
          marks: [
            Plot.frame({ strokeOpacity: 0.2 }),
            Plot.ruleX(points, {
              fx: "measure",
              x: "k",
              y1: "lower",
              y2: "upper",
              stroke: "system",
              strokeOpacity: 0.5,
            }),
            Plot.lineY(points, { fx: "measure", x: "k", y: "value", stroke: "system", marker: "dot" }),
          ],
        };
      }}
    />
  );
}
