import type { Estimate } from "../../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { ClientTable } from "~/components/client-table";
import { formatNumber } from "~/utils/format";
import { metricLabel } from "~/utils/metrics-display";
import { cellAs, raw, show, type Report } from "./cells";

/**
 * The mean and CI in the measure's own unit (HR as a percentage); the row and its CSV keep the raw
 * number. The spread stays on the raw scale (a rate's SD as a share), as a percentage of it would mislead.
 */
const inUnit = {
  cell: (c: { getValue: () => unknown; row: { original: { code: string } } }) =>
    show(c.row.original.code, c.getValue() as number | null),
  aggregatedCell: () => null,
};

/**
 * Every measure at every K with its mean, CI and spread across proposals (SD and variance), per system
 * and group: how far single proposals stray from the mean, which a CI over the mean does not say.
 */
export function SpreadTable({ report }: { report: Report }) {
  const data = report.systems.flatMap((s) =>
    [["overall", s.overall] as const, ...Object.entries(s.subjects)].flatMap(([group, g]) =>
      Object.entries(g.measures as Record<string, Json<Estimate>>).map(([measure, e]) => ({
        system: s.name,
        group,
        measure: metricLabel(measure),
        code: measure,
        value: raw(e.value),
        lower: e.ci?.lower ?? null,
        upper: e.ci?.upper ?? null,
        sd: raw(e.sd),
        variance: raw(e.variance),
      })),
    ),
  );
  return (
    <ClientTable
      caption="Every measure's mean, CI and spread across proposals"
      fileName="offline-spread.csv"
      groupable={["system", "group", "measure"]}
      initiallyHidden={["code"]}
      data={data}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "code", accessorKey: "code", header: "Code" },
        { id: "group", accessorKey: "group", header: "Group" },
        { id: "measure", accessorKey: "measure", header: "Measure" },
        { id: "value", accessorKey: "value", header: "Mean", ...inUnit },
        { id: "lower", accessorKey: "lower", header: "CI lower", ...inUnit },
        { id: "upper", accessorKey: "upper", header: "CI upper", ...inUnit },
        { id: "sd", accessorKey: "sd", header: "SD", ...cellAs((v) => formatNumber(v)) },
        { id: "variance", accessorKey: "variance", header: "Variance", ...cellAs((v) => formatNumber(v)) },
      ]}
    />
  );
}
