import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatRate } from "~/utils/format";
import { cellAs, raw, type Report } from "./cells";

/**
 * The rank of the g-th relevant member per system and g: mean, median and p90 with their 95% bootstrap
 * intervals over proposals (g = 1 is K_hit), the variance and the misses.
 */
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
          meanCi: formatCi(r.meanCi, formatNumber),
          median: raw(r.median),
          medianCi: formatCi(r.medianCi, formatNumber),
          p90: raw(r.p90),
          p90Ci: formatCi(r.p90Ci, formatNumber),
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
        { id: "meanCi", accessorKey: "meanCi", header: "Mean CI" },
        { id: "median", accessorKey: "median", header: "Median", ...cellAs(formatNumber) },
        { id: "medianCi", accessorKey: "medianCi", header: "Median CI" },
        { id: "p90", accessorKey: "p90", header: "p90", ...cellAs(formatNumber) },
        { id: "p90Ci", accessorKey: "p90Ci", header: "p90 CI" },
        { id: "variance", accessorKey: "variance", header: "Variance", ...cellAs(formatNumber) },
        { id: "missing", accessorKey: "missing", header: "Missing", ...cellAs(formatCount) },
        { id: "missingShare", accessorKey: "missingShare", header: "Missing share", ...cellAs(formatRate) },
      ]}
    />
  );
}
