import { ClientTable } from "~/components/client-table";
import type { ResultRow } from "~/utils/result-rows";

const round = (v: number | null) => (v === null ? null : Number(v.toFixed(4)));

/** Every figure of a result, one row per system (or arm), group and measure, with its 95% interval. */
export function AllFiguresTable({ rows, caption, fileName }: { rows: ResultRow[]; caption: string; fileName: string }) {
  return (
    <ClientTable
      caption={caption}
      fileName={fileName}
      groupable={["system", "group", "measure"]}
      data={rows.map((r) => ({ system: r.system, group: r.group, measure: r.measure, value: round(r.value), lower: round(r.lower), upper: round(r.upper) }))}
      columns={[
        { id: "system", accessorKey: "system", header: "System or arm" },
        { id: "group", accessorKey: "group", header: "Group" },
        { id: "measure", accessorKey: "measure", header: "Measure" },
        { id: "value", accessorKey: "value", header: "Value", aggregatedCell: () => null },
        { id: "lower", accessorKey: "lower", header: "95% CI lower", aggregatedCell: () => null },
        { id: "upper", accessorKey: "upper", header: "95% CI upper", aggregatedCell: () => null },
      ]}
    />
  );
}
