import { onlineMetrics } from "../../../../scripts/online/report";
import { Chart } from "~/components/chart";
import { formatCount } from "~/utils/format";
import { plottedSeries, seriesScale, untilLastPoint } from "~/utils/chart-series";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { fmt, metricLabels } from "./labels";

export interface DailyPoint {
  day: string;
  arms: Record<string, Record<string, number | null>>;
  /** Pointwise 95% intervals (scripts/online/daily-intervals.ts); absent in snapshots frozen before them. */
  ci?: Record<string, Record<string, { lower: number; upper: number } | null>>;
  /** Each arm's sessions up to that day; absent in snapshots frozen before it. */
  sessions?: Record<string, number>;
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
      sessions: d.sessions?.[arm] ?? null,
    })),
  );
}

type Point = ReturnType<typeof dailyPoints>[number];

/**
 * What one metric's chart draws: each arm's line ends on the last day it gained a session (an arm
 * stopped early does not run flat to the last day of the others), and the legend lists exactly the
 * arms drawn. Series without session counts (older snapshots) end at their last value.
 */
export function dailySeries(daily: DailyPoint[], metric: string) {
  const grew = (p: Point, before: Point | undefined) =>
    p.value !== null && (p.sessions === null || before?.sessions == null || p.sessions > before.sessions);
  const points = untilLastPoint(dailyPoints(daily, metric), (p) => p.arm, grew);
  const series = plottedSeries(points, (p) => p.arm, { hasValue: (p) => p.value !== null });
  return { points, series };
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
  const { points, series } = dailySeries(daily, metric);
  return (
    <Chart
      legend={series}
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
          {
            key: "sessions",
            label: "Sessions so far",
            format: (v) => formatCount(v as number | null),
          },
        ],
        rows: points.map((p) => ({
          ...p,
          day: p.day.toISOString().slice(0, 10),
        })),
      }}
      build={(Plot) => {
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
          color: seriesScale(series),
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
