import { ClientTable } from "~/components/client-table";
import type { ResultRow } from "../../scripts/results/rows";
import { formatDifference, formatValue } from "~/utils/format";
import { rowMeasure } from "~/utils/metrics-display";

/** A row of "every figure" in its unit: a difference row (`adoptionRate difference`) as a difference. */
function formatterOf(measure: string): (v: number | null) => string {
  const m = rowMeasure(measure);
  return m.isDifference ? (v) => formatDifference(v, m.kind) : (v) => formatValue(v, m.kind);
}

/**
 * Every figure of a result, one row per system (or arm), group and measure, with its 95% interval: shown
 * by display name and in its unit, while the rows (and so the CSV) keep the raw numbers; the code name
 * (`Success@10`) is a hidden column the filter still searches.
 */
export function AllFiguresTable({
  rows,
  caption,
  fileName,
}: {
  rows: ResultRow[];
  caption: string;
  fileName: string;
}) {
  return (
    <ClientTable
      caption={caption}
      fileName={fileName}
      groupable={["system", "group", "measure"]}
      initiallyHidden={["code"]}
      data={rows.map((r) => ({
        system: r.system,
        group: r.group,
        measure: rowMeasure(r.measure).label,
        code: r.measure,
        value: r.value,
        lower: r.lower,
        upper: r.upper,
      }))}
      columns={[
        { id: "system", accessorKey: "system", header: "System or arm" },
        { id: "group", accessorKey: "group", header: "Group" },
        { id: "measure", accessorKey: "measure", header: "Measure" },
        { id: "code", accessorKey: "code", header: "Code name" },
        {
          id: "value",
          accessorKey: "value",
          header: "Value",
          cell: (c) => formatterOf(c.row.original.code)(c.getValue() as number | null),
          aggregatedCell: () => null,
        },
        {
          id: "lower",
          accessorKey: "lower",
          header: "95% CI lower",
          cell: (c) => formatterOf(c.row.original.code)(c.getValue() as number | null),
          aggregatedCell: () => null,
        },
        {
          id: "upper",
          accessorKey: "upper",
          header: "95% CI upper",
          cell: (c) => formatterOf(c.row.original.code)(c.getValue() as number | null),
          aggregatedCell: () => null,
        },
      ]}
    />
  );
}
