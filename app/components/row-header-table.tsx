import type { ReactNode } from "react";
import { TableScroll } from "~/components/table-scroll";

/**
 * The frame of a grid of figures: one row per named thing (a system), its name the row's header, and one
 * number column per key (a measure, a K, another system), in a scrolling box that keeps the names in view.
 * The ground-truth, integrity and multileaving tables each wrote this frame out; the cells stay theirs.
 */
export function RowHeaderTable<R>({
  label,
  className,
  corner,
  columns,
  rows,
  rowKey,
  rowHeader,
  rowData,
  cells,
}: {
  /** The table's accessible name, also the scrolling box's. */
  label: string;
  className?: string;
  /** The header above the row names. */
  corner: string;
  columns: { key: string; header: ReactNode }[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  rowHeader: (row: R) => ReactNode;
  /** A data-* attribute of the row, for tests and styles that find a row by what it is. */
  rowData?: (row: R) => Record<`data-${string}`, string>;
  /** The row's cells, one keyed `<td>` per column. */
  cells: (row: R) => ReactNode;
}) {
  return (
    <TableScroll label={label}>
      <table aria-label={label} className={className}>
        <thead>
          <tr>
            <th>{corner}</th>
            {columns.map((c) => (
              <th key={c.key} className="num">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              <th scope="row">{rowHeader(row)}</th>
              {cells(row)}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
