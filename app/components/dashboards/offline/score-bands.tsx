import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatRate } from "~/utils/format";
import { cellAs, type System } from "./cells";

const bandLabel = (lower: number | null, upper: number | null) =>
  lower === null
    ? `below ${formatNumber(upper)}`
    : upper === null
      ? `${formatNumber(lower)} and above`
      : `${formatNumber(lower)} to ${formatNumber(upper)}`;

/** One row per system and score band, numbered from the lowest scores up. */
function bandRows(banded: { s: System; bands: NonNullable<System["scoreBands"]> }[]) {
  return banded.flatMap(({ s, bands }) =>
    bands.bands.map((b, i) => ({
      system: s.name,
      // 1 = the lowest band: systems score on different scales, so the chart places bands by order.
      band: bands.bands.length - i,
      range: bandLabel(b.lower, b.upper),
      candidates: b.candidates,
      members: b.members,
      share: b.share,
      lower: b.ci?.lower ?? null,
      upper: b.ci?.upper ?? null,
      meanScore: b.meanScore,
    })),
  );
}
type BandRow = ReturnType<typeof bandRows>[number];

/** The reliability diagram: the committee share in each score band, per system, as a chart and a table. */
export function ScoreBandsSection({ systems }: { systems: System[] }) {
  const banded = systems.flatMap((s) => (s.scoreBands ? [{ s, bands: s.scoreBands }] : []));
  if (banded.length === 0) return null;
  const rows = bandRows(banded);
  const given = banded[0].bands.method === "given";
  return (
    <>
      <h2>Score bands</h2>
      <p className="muted">
        Every candidate of every evaluated list, grouped by score into{" "}
        {given ? "the bands given to the report" : "the deciles of the system's scores"}: the share who sat on
        the proposal's committee. A share that rises with the score means a higher score is a likelier
        committee member. Intervals are Wilson 95% score intervals, which treat candidates as independent
        (candidates of one list are not), so read them as the least uncertainty there is.
      </p>
      <ScoreBandsChart rows={rows} />
      <ScoreBandsTable rows={rows} />
    </>
  );
}

function ScoreBandsChart({ rows }: { rows: BandRow[] }) {
  const series = plottedSeries(rows, (r) => r.system, { hasValue: (r) => r.share !== null });
  return (
    <Chart
      legend={series}
      caption="Reliability diagram: in each score band, from the lowest scores (1) to the highest, the share of candidates who were committee members, per system, with Wilson 95% intervals."
      deps={[rows]}
      build={(Plot) => ({
        title: "Committee share by score band",
        x: { label: "score band (1 = lowest scores)", ticks: [...new Set(rows.map((r) => r.band))] },
        y: { label: "share that are committee members", tickFormat: "%", grid: true },
        color: seriesScale(series),
        marks: [
          Plot.ruleX(rows, { x: "band", y1: "lower", y2: "upper", stroke: "system", strokeOpacity: 0.5 }),
          Plot.lineY(rows, { x: "band", y: "share", stroke: "system", marker: "dot" }),
          Plot.ruleY([0]),
        ],
      })}
    />
  );
}

function ScoreBandsTable({ rows }: { rows: BandRow[] }) {
  return (
    <ClientTable
      caption="Score bands"
      fileName="offline-score-bands.csv"
      groupable={["system"]}
      pageSize={10}
      data={rows}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "band", accessorKey: "band", header: "Band" },
        { id: "range", accessorKey: "range", header: "Scores" },
        { id: "candidates", accessorKey: "candidates", header: "Candidates", ...cellAs(formatCount) },
        { id: "members", accessorKey: "members", header: "Committee members", ...cellAs(formatCount) },
        { id: "share", accessorKey: "share", header: "Share", ...cellAs(formatRate) },
        {
          id: "ci",
          accessorFn: (r) => r.lower,
          header: "Wilson 95% CI",
          cell: (c) =>
            formatCi(
              c.row.original.lower === null
                ? null
                : { lower: c.row.original.lower, upper: c.row.original.upper! },
              formatRate,
            ),
          aggregatedCell: () => null,
        },
        { id: "meanScore", accessorKey: "meanScore", header: "Mean score", ...cellAs(formatNumber) },
      ]}
    />
  );
}
