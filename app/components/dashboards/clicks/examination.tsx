import { BAND_OPACITY, Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { plottedSeries, seriesScale, type Series } from "~/utils/chart-series";
import { formatCi, formatCount, formatNumber } from "~/utils/format";
import type { ClicksFit } from "./fit";
import { fmt, fmtCi } from "./labels";

type Depth = ClicksFit["displayDepth"][number];
type Point = ClicksFit["examination"][number];

const PBM = "PBM examination";
const BAND = "PBM examination 95% interval";
const INK = "#1f2328";

/** What the chart draws: PBM's curve as a solid black line, then each arm with a depth as a dashed line. */
export function examinationSeries(fit: Pick<ClicksFit, "examination" | "displayDepth">): Series[] {
  const curve: Series[] = fit.examination.length ? [{ key: PBM, label: PBM, color: INK, dash: null }] : [];
  const band: Series[] = fit.examination.some((e) => e.relativeCi)
    ? [{ key: BAND, label: "95% interval (PBM refitted per resample)", color: INK, dash: null, band: true }]
    : [];
  const depths = plottedSeries(fit.displayDepth, (d) => d.arm, {
    hasValue: (d) => d.depth !== null,
    label: (arm) => `${arm}: display depth`,
    dash: () => "4 3",
  });
  return [...curve, ...band, ...depths];
}

/** PBM's examination curve with each arm's suggested display depth as a dashed line. */
export function ExaminationChart({ fit, maxRank }: { fit: ClicksFit; maxRank: number }) {
  const depths = fit.displayDepth.filter((d) => d.depth !== null);
  const series = examinationSeries(fit);
  const black = series.find((s) => s.key === PBM)?.color;
  return (
    <Chart
      legend={series}
      caption={`PBM's probability that a convener looks at each rank, relative to rank 1 (black line${series.some((s) => s.band) ? "; the grey band is its 95% interval from refitting PBM on resampled conveners" : ""})${depths.length ? `, with each arm's suggested display depth (K_hit's 90th percentile) as a dashed line: ${depths.map((d) => `${d.arm} ${formatCount(d.depth)}`).join(", ")}` : ""}.`}
      deps={[fit]}
      build={(Plot) => {
        const right = Math.max(maxRank, ...depths.map((d) => d.depth!));
        return {
          title: "Examination by rank (PBM)",
          x: { label: "rank", domain: [1, right], ticks: Math.min(right, 20) },
          y: {
            label: "probability of looking (rank 1 = 100%)",
            // A resample's rank can be looked at more than rank 1 is (an interval above 100%).
            domain: [0, Math.max(1, ...fit.examination.map((e) => e.relativeCi?.upper ?? 0))],
            tickFormat: "%",
            grid: true,
          },
          color: seriesScale(series),
          marks: [
            Plot.areaY(
              fit.examination.filter((e) => e.relativeCi),
              {
                x: "rank",
                y1: (e: Point) => e.relativeCi!.lower,
                y2: (e: Point) => e.relativeCi!.upper,
                fill: INK,
                fillOpacity: BAND_OPACITY,
              },
            ),
            Plot.lineY(fit.examination, { x: "rank", y: "relative", stroke: black }),
            Plot.dot(fit.examination, { x: "rank", y: "relative", fill: black, r: 3 }),
            Plot.ruleX(depths, { x: "depth", stroke: "arm", strokeDasharray: "4 3" }),
            Plot.text(depths, {
              x: "depth",
              y: 1,
              text: (d: { arm: string; depth: number }) => `${d.arm}: ${formatCount(d.depth)}`,
              dy: -6,
              fill: "arm",
            }),
          ],
        };
      }}
    />
  );
}

/** The examination curve as a table, folded away until asked for. */
export function ExaminationTable({ fit }: { fit: ClicksFit }) {
  return (
    <details>
      <summary>Show the examination curve as a table</summary>
      <TableScroll label="Examination by rank">
        <table aria-label="Examination by rank">
          <thead>
            <tr>
              <th className="num">Rank</th>
              <th className="num">Examination (rank 1 = 100%)</th>
              <th className="num">95% CI</th>
              <th className="num">PBM’s γ as fitted</th>
            </tr>
          </thead>
          <tbody>
            {fit.examination.map((e) => (
              <tr key={e.rank}>
                <td className="num">{formatCount(e.rank)}</td>
                <td className="num">{fmt(e.relative, "examination")}</td>
                <td className="num">{fmtCi(e.relativeCi, "examination")}</td>
                <td className="num">{formatNumber(e.fitted)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}

const depthText = (d: Depth) =>
  `${d.arm} (${d.system}) ${d.depth === null ? "— (no lists with committees)" : formatCount(d.depth)}${
    d.kHitP90?.value != null
      ? ` (K_hit p90 ${formatNumber(d.kHitP90.value)} ${formatCi(d.kHitP90.ci, formatNumber)})`
      : ""
  }`;

/**
 * What the curve can say (examination up to a common factor) and each arm's suggested display depth,
 * with the 95% interval of the K_hit percentile it rounds up (the offline page's).
 */
export function ExaminationNote({ fit }: { fit: ClicksFit }) {
  return (
    <p className="muted">
      PBM fits click = attractiveness × examination, which fixes examination only up to a common factor; the
      curve takes rank 1 as always looked at. Suggested display depth:{" "}
      {fit.displayDepth.map(depthText).join("; ")}.
    </p>
  );
}
