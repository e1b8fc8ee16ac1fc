import { ClientTable } from "~/components/client-table";
import { formatCi, formatNumber } from "~/utils/format";
import type { FairnessFigures } from "./fairness";
import { cellAs } from "./cells";

/** One row per attribute, group and system: exposure per unit of merit and its ratio to the others'. */
function meritRows(report: FairnessFigures) {
  return Object.entries(report).flatMap(([system, s]) =>
    Object.entries(s.attributes).flatMap(([attribute, a]) =>
      Object.entries(a.groups)
        .filter(([, g]) => !g.suppressed)
        .map(([group, g]) => ({
          attribute,
          group,
          system,
          perMerit: g.figures.exposurePerMerit?.value ?? null,
          perMeritCi: formatCi(g.figures.exposurePerMerit?.ci, (v) => formatNumber(v)),
          ratio: g.figures.exposurePerMeritRatio?.value ?? null,
          ratioCi: formatCi(g.figures.exposurePerMeritRatio?.ci, (v) => formatNumber(v)),
        })),
    ),
  );
}

/**
 * Exposure per unit of merit (Singh & Joachims, KDD 2018): the position weight a group's members get in
 * a system's lists per committee member among them, and that over the other candidates' (1 = parity).
 */
export function FairnessMerit({ report }: { report: FairnessFigures }) {
  const rows = meritRows(report);
  if (!rows.some((r) => r.ratio !== null)) return null;
  return (
    <ClientTable
      caption="Exposure per unit of merit (merit: gold committee membership); ratio to the other candidates', 1 = parity"
      fileName="offline-fairness-merit.csv"
      groupable={["attribute", "system"]}
      pageSize={15}
      data={rows}
      columns={[
        { id: "attribute", accessorKey: "attribute", header: "Attribute" },
        { id: "group", accessorKey: "group", header: "Group" },
        { id: "system", accessorKey: "system", header: "System" },
        { id: "perMerit", accessorKey: "perMerit", header: "Exposure per merit", ...cellAs(formatNumber) },
        { id: "perMeritCi", accessorKey: "perMeritCi", header: "95% CI" },
        { id: "ratio", accessorKey: "ratio", header: "Ratio to others", ...cellAs(formatNumber) },
        { id: "ratioCi", accessorKey: "ratioCi", header: "95% CI " },
      ]}
    />
  );
}
