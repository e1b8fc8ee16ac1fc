import type { Row, Table } from "@tanstack/react-table";
import { toCsv, type CsvCell } from "../../scripts/lib/csv";

/**
 * What a results table's "Download CSV" writes: every data row the filter keeps (a group row stands for
 * its rows), in the order shown, with the visible columns; through the one formula-safe CSV writer.
 */
export function tableCsv<T>(table: Table<T>): string {
  const visible = table.getVisibleLeafColumns();
  const leaves = (rows: Row<T>[]): Row<T>[] =>
    rows.flatMap((r) => (r.getIsGrouped() ? leaves(r.subRows) : [r]));
  const rows = leaves(table.getSortedRowModel().rows);
  // A header given as a render function has no text of its own: the column id names it.
  const headers = visible.map((c) => (typeof c.columnDef.header === "string" ? c.columnDef.header : c.id));
  return toCsv(
    headers,
    rows.map((r) => visible.map((c) => csvCell(r.getValue(c.id)))),
  );
}

function csvCell(value: unknown): CsvCell {
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean")
    return value;
  return String(value);
}
