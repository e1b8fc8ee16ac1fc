import { onlineMetrics } from "../../../../scripts/online/report";
import { Chart } from "~/components/chart";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { fmt, metricLabels } from "./labels";

export interface DailyPoint {
  day: string;
  arms: Record<string, Record<string, number | null>>;
  /** Pointwise 95% intervals (scripts/online/daily-intervals.ts); absent in snapshots frozen before them. */
  ci?: Record<string, Record<string, { lower: number; upper: number } | null>>;
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

/** Every metric's cumulative value per arm, day by day, one chart each. */
export function DailyCharts({ daily }: { daily: DailyPoint[] }) {
  return (
    <div className="side-by-side">
      {onlineMetrics.map((metric) => (
        <DailyMetricChart key={metric} daily={daily} metric={metric} />
      ))}
    </div>
  );
}

/** One metric per arm as it stood at the end of each day, its pointwise interval as a band. */
function DailyMetricChart({ daily, metric }: { daily: DailyPoint[]; metric: string }) {
  return (
    <Chart
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
  );
}
