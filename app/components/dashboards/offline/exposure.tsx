import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { formatCount, formatNumber, formatRate } from "~/utils/format";
import { cellAs, type System } from "./cells";

/** One row per system, subject (or overall) and K: coverage, long tail, Gini and subject mix. */
function exposureRows(systems: System[]) {
  return systems.flatMap((s) =>
    [["overall", s.exposure.overall] as const, ...Object.entries(s.exposure.subjects)].flatMap(([group, g]) =>
      g.byK.map((x) => ({
        system: s.name,
        group,
        k: x.k,
        proposals: g.proposals,
        predictionCoverage: g.predictionCoverage,
        longTailShare: x.longTailShare,
        gini: x.gini,
        subjectEntropy: x.subjectEntropy,
        otherSubjectShare: x.otherSubjectShare,
        unknownSubjectShare: x.unknownSubjectShare,
      })),
    ),
  );
}
type ExposureRow = ReturnType<typeof exposureRows>[number];

/** How the systems spread the work: long-tail share, Gini of exposure and subject diversity against K. */
export function Exposure({ systems }: { systems: System[] }) {
  const headShare = systems[0].exposure.headShare;
  const rows = exposureRows(systems);
  return (
    <>
      <h2>Diversity and exposure</h2>
      <p className="muted">
        Beside Coverage@K. Prediction coverage: proposals with a non-empty list. Long-tail share@K: top-K
        places given to candidates outside the {formatRate(headShare)} of the catalog the system recommends
        most (Abdollahpouri et al.). Gini: how unequally top-K places spread over the whole catalog (0 equal,
        near 1 a few take all). Subject entropy (bits): the mix of subjects in each top K, averaged over
        proposals; a candidate's subject is the one of most of the committees they sat on.
      </p>
      {systems.some((s) => s.userCoverage) && (
        <p>
          User coverage (proposals the system returned any list for, of all proposals):{" "}
          {systems
            .filter((s) => s.userCoverage)
            .map(
              (s) =>
                `${s.name} ${formatRate(s.userCoverage.share)} (${formatCount(s.userCoverage.withList)} of ${formatCount(s.userCoverage.proposals)})`,
            )
            .join(" · ")}
        </p>
      )}
      <ExposureTable rows={rows} />
      <ExposureChart rows={rows} />
    </>
  );
}

function ExposureTable({ rows }: { rows: ExposureRow[] }) {
  return (
    <ClientTable
      caption="Diversity and exposure by system, subject and K"
      fileName="offline-exposure.csv"
      groupable={["system", "group", "k"]}
      pageSize={15}
      data={rows}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "group", accessorKey: "group", header: "Subject" },
        { id: "k", accessorKey: "k", header: "K" },
        { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
        {
          id: "predictionCoverage",
          accessorKey: "predictionCoverage",
          header: "Prediction coverage",
          ...cellAs(formatRate),
        },
        {
          id: "longTailShare",
          accessorKey: "longTailShare",
          header: "Long-tail share@K",
          ...cellAs(formatRate),
        },
        { id: "gini", accessorKey: "gini", header: "Gini of exposure", ...cellAs(formatNumber) },
        {
          id: "subjectEntropy",
          accessorKey: "subjectEntropy",
          header: "Subject entropy (bits)",
          ...cellAs(formatNumber),
        },
        {
          id: "otherSubjectShare",
          accessorKey: "otherSubjectShare",
          header: "Other-subject share",
          ...cellAs(formatRate),
        },
        {
          id: "unknownSubjectShare",
          accessorKey: "unknownSubjectShare",
          header: "No subject",
          ...cellAs(formatRate),
        },
      ]}
    />
  );
}

/** The overall exposure measures against K, per system: what the chart draws. */
function exposurePoints(rows: ExposureRow[]) {
  return rows
    .filter((r) => r.group === "overall")
    .flatMap((r) => [
      { system: r.system, k: r.k, measure: "Long-tail share@K", value: r.longTailShare },
      { system: r.system, k: r.k, measure: "Gini of exposure", value: r.gini },
    ]);
}

function ExposureChart({ rows }: { rows: ExposureRow[] }) {
  const points = exposurePoints(rows);
  const series = plottedSeries(points, (p) => p.system, { hasValue: (p) => p.value !== null });
  return (
    <Chart
      legend={series}
      caption="Long-tail share and Gini of exposure against the depth K, per system (overall): more long tail and a lower Gini spread the work over more people."
      deps={[rows]}
      build={(Plot) => {
        return {
          title: "Exposure against K",
          height: 260,
          fx: { label: null },
          x: { label: "K (candidates shown)" },
          y: { label: "share or Gini (0–1)", domain: [0, 1], grid: true },
          color: seriesScale(series),
          marks: [
            Plot.frame({ strokeOpacity: 0.2 }),
            Plot.lineY(points, { fx: "measure", x: "k", y: "value", stroke: "system", marker: "dot" }),
          ],
        };
      }}
    />
  );
}
