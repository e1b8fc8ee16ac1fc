import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatNumber } from "~/utils/format";
import type { ClicksFit } from "./fit";

/** d3's "paired" scheme, twelve colours. */
const PAIRED = [
  "#a6cee3",
  "#1f78b4",
  "#b2df8a",
  "#33a02c",
  "#fb9a99",
  "#e31a1c",
  "#fdbf6f",
  "#ff7f00",
  "#cab2d6",
  "#6a3d9a",
  "#ffff99",
  "#b15928",
];

/** Each model's perplexity at each rank on the held-out sessions, as a chart. */
export function PerplexityChart({ fit, maxRank }: { fit: ClicksFit; maxRank: number }) {
  const ranks = fit.examination.map((e) => e.rank);
  const points = fit.models.flatMap((m) =>
    m.perplexityByRank.map((p, i) => ({ model: m.name, rank: i + 1, perplexity: p })),
  );
  // Twelve models: a twelve-colour scheme, so no two lines share a colour.
  const series = plottedSeries(points, (p) => p.model, { color: (_, i) => PAIRED[i % PAIRED.length] });
  return (
    <Chart
      legend={series}
      caption={`Perplexity of each model's click predictions at ranks 1 to ${maxRank} on the held-out sessions; lower is better.`}
      deps={[fit]}
      build={(Plot) => {
        return {
          title: "Perplexity by rank",
          x: { label: "rank", ticks: ranks },
          y: { label: "perplexity (lower is better)", grid: true },
          color: seriesScale(series),
          marks: [
            Plot.lineY(points, { x: "rank", y: "perplexity", stroke: "model" }),
            Plot.dot(points, { x: "rank", y: "perplexity", stroke: "model", r: 2 }),
          ],
        };
      }}
    />
  );
}

/** The same perplexities as a table, a column per rank, each with its interval. */
export function PerplexityTable({ fit }: { fit: ClicksFit }) {
  const ranks = fit.examination.map((e) => e.rank);
  return (
    <TableScroll label="Perplexity by rank">
      <table aria-label="Perplexity by rank">
        <thead>
          <tr>
            <th>Model</th>
            {ranks.map((r) => (
              <th key={r} className="num">
                Rank {r}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {fit.models.map((m) => (
            <tr key={m.name}>
              <th scope="row">{m.name}</th>
              {m.perplexityByRank.map((p, i) => (
                <td key={i} className="num">
                  {formatNumber(p)}
                  <div className="muted">{formatCi(m.perplexityByRankCi?.[i], formatNumber)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
