import { Chart } from "~/components/chart";
import { formatRate } from "~/utils/format";
import type { FairnessFigures } from "./fairness";

const rate = (v: unknown) => formatRate(v as number | null);
export const POOL_SERIES = "pool share";
export const TARGET_SERIES = "target";

interface SharePoint {
  group: string;
  series: string;
  k: number;
  share: number | null;
  lower: number | null;
  upper: number | null;
}

/**
 * The points of one attribute's chart: each system's share of each shown group in the top K, with its
 * interval, and the group's pool share and target (when set) as flat series across the K grid.
 */
export function sharePoints(report: FairnessFigures, attribute: string, ks: readonly number[]): SharePoint[] {
  const systems = Object.entries(report);
  const groups = Object.entries(systems[0]?.[1].attributes[attribute]?.groups ?? {}).filter(
    ([, g]) => !g.suppressed,
  );
  return groups.flatMap(([group, g]) => [
    ...systems.flatMap(([system, s]) =>
      ks.map((k) => {
        const f = s.attributes[attribute]?.groups[group]?.figures[`share@${k}`];
        return {
          group,
          series: system,
          k,
          share: f?.value ?? null,
          lower: f?.ci?.lower ?? null,
          upper: f?.ci?.upper ?? null,
        };
      }),
    ),
    ...ks.map((k) => ({ group, series: POOL_SERIES, k, share: g.poolShare, lower: null, upper: null })),
    ...(g.target !== undefined
      ? ks.map((k) => ({ group, series: TARGET_SERIES, k, share: g.target!, lower: null, upper: null }))
      : []),
  ]);
}

/** Each group's share of the top K by K, one panel per group: the systems with 95% bands, the pool and the target. */
export function ShareByKChart({
  report,
  attribute,
  ks,
}: {
  report: FairnessFigures;
  attribute: string;
  ks: number[];
}) {
  const points = sharePoints(report, attribute, ks);
  const groups = [...new Set(points.map((p) => p.group))];
  const series = [...new Set(points.map((p) => p.series))];
  return (
    <Chart
      title={`Share of the top K by K: ${attribute}`}
      caption={`Each ${attribute} group's share of each system's top K at each K, with 95% bootstrap bands over proposals, against the group's share of the pool (dashed) and the target set above (dotted); one panel per group.`}
      deps={[report, attribute, ks]}
      table={{
        columns: [
          { key: "group", label: "Group" },
          { key: "series", label: "Series" },
          { key: "k", label: "K" },
          { key: "share", label: "Share", format: rate },
          { key: "lower", label: "95% lower", format: rate },
          { key: "upper", label: "95% upper", format: rate },
        ],
        rows: points,
      }}
      build={(Plot) => {
        const systems = points.filter((p) => p.lower !== null);
        const flat = (name: string) => points.filter((p) => p.series === name);
        // The range the shares span (bands, pool and target), padded: on 0–100% a gap of 6 points is a hairline.
        const ends = points
          .flatMap((p) => [p.lower ?? p.share, p.upper ?? p.share])
          .filter((v) => v !== null);
        const domain = [Math.max(0, Math.min(...ends) - 0.05), Math.min(1, Math.max(...ends) + 0.05)];
        return {
          height: 60 + 120 * groups.length,
          // Room on the right for the panels' group names.
          marginRight: 80,
          x: { label: "K", ticks: ks },
          y: { label: "share of the top K", domain, tickFormat: "%", grid: true },
          fy: { label: null, domain: groups },
          color: { legend: true, domain: series },
          marks: [
            Plot.areaY(systems, {
              x: "k",
              y1: "lower",
              y2: "upper",
              fy: "group",
              fill: "series",
              fillOpacity: 0.15,
            }),
            Plot.lineY(
              points.filter((p) => p.series !== POOL_SERIES && p.series !== TARGET_SERIES),
              { x: "k", y: "share", fy: "group", stroke: "series", marker: "dot" },
            ),
            Plot.lineY(flat(POOL_SERIES), {
              x: "k",
              y: "share",
              fy: "group",
              stroke: "series",
              strokeDasharray: "6 4",
            }),
            Plot.lineY(flat(TARGET_SERIES), {
              x: "k",
              y: "share",
              fy: "group",
              stroke: "series",
              strokeDasharray: "2 3",
            }),
          ],
        };
      }}
    />
  );
}
