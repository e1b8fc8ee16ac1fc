import { ClientTable } from "~/components/client-table";
import { formatCount, formatNumber, formatRate } from "~/utils/format";
import { cellAs, raw, type Report } from "./cells";

/** The rank of the first relevant member per system and committee size g: mean, median, p90, misses. */
export function RankDistributionTable({ report }: { report: Report }) {
  return (
    <ClientTable
      caption="Rank distribution"
      fileName="offline-rank-distribution.csv"
      groupable={["system", "g"]}
      data={report.systems.flatMap((s) =>
        s.rankDistribution.map((r) => ({
          system: s.name,
          g: r.g,
          proposals: r.proposals,
          mean: raw(r.mean),
          median: raw(r.median),
          p90: raw(r.p90),
          variance: raw(r.variance),
          missing: r.missing,
          missingShare: raw(r.missingShare),
        })),
      )}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "g", accessorKey: "g", header: "g (committee members)" },
        { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
        { id: "mean", accessorKey: "mean", header: "Mean rank", ...cellAs(formatNumber) },
        { id: "median", accessorKey: "median", header: "Median", ...cellAs(formatNumber) },
        { id: "p90", accessorKey: "p90", header: "p90", ...cellAs(formatNumber) },
        { id: "variance", accessorKey: "variance", header: "Variance", ...cellAs(formatNumber) },
        { id: "missing", accessorKey: "missing", header: "Missing", ...cellAs(formatCount) },
        { id: "missingShare", accessorKey: "missingShare", header: "Missing share", ...cellAs(formatRate) },
      ]}
    />
  );
}
