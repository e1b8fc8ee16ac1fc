import { flexRender, type Cell, type Header, type Row, type Table } from "@tanstack/react-table";
import { idClass } from "~/utils/id-like";
import { numericClass } from "~/components/server-table-parts";

/**
 * The columns to right-align: marked `meta: { numeric: true }`, or holding a number in any row. A whole
 * column aligns as one, so a missing value's "—" stands where its numbers do, not at the left edge.
 */
export function numericColumns<T>(table: Table<T>): Set<string> {
  const rows = table.getCoreRowModel().flatRows;
  return new Set(
    table
      .getAllLeafColumns()
      .filter(
        (c) => numericClass(c.columnDef) === "num" || rows.some((r) => typeof r.getValue(c.id) === "number"),
      )
      .map((c) => c.id),
  );
}

/** The header row: every column sorts when its name is pressed, and says which way it is sorted. */
export function ClientTableHead<T>({ table }: { table: Table<T> }) {
  const numeric = numericColumns(table);
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((h) => (
            <SortableHeader key={h.id} header={h} numeric={numeric.has(h.column.id)} />
          ))}
        </tr>
      ))}
    </thead>
  );
}

function SortableHeader<T>({ header: h, numeric }: { header: Header<T, unknown>; numeric: boolean }) {
  const sorted = h.column.getIsSorted();
  return (
    <th
      className={numeric ? "num" : undefined}
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
    >
      <button type="button" className="link-button" onClick={h.column.getToggleSortingHandler()}>
        {flexRender(h.column.columnDef.header, h.getContext())}{" "}
        {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}
      </button>
    </th>
  );
}

/**
 * The rows of the current page; a group row opens and closes its rows. With no row, one line says
 * whether the filter (`filter`) left none or there are none at all (`rowCount` 0).
 */
export function ClientTableBody<T>({
  table,
  rowCount,
  filter,
}: {
  table: Table<T>;
  rowCount: number;
  filter: string;
}) {
  const numeric = numericColumns(table);
  return (
    <tbody>
      {table.getRowModel().rows.length === 0 ? (
        <tr>
          <td colSpan={table.getVisibleLeafColumns().length} className="muted">
            {rowCount ? `No rows contain “${filter}”.` : "Nothing to show yet."}
          </td>
        </tr>
      ) : null}
      {table.getRowModel().rows.map((row) => (
        <tr key={row.id}>
          {row.getVisibleCells().map((cell) => (
            <td key={cell.id} className={cellClass(cell, numeric)}>
              <CellContent row={row} cell={cell} />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

function cellClass<T>(cell: Cell<T, unknown>, numeric: Set<string>): string | undefined {
  return numeric.has(cell.column.id) ? "num" : idClass(cell.getValue());
}

/** A grouped cell is the group's toggle with its row count; an aggregated one its summary, if any. */
function CellContent<T>({ row, cell }: { row: Row<T>; cell: Cell<T, unknown> }) {
  if (cell.getIsGrouped()) {
    const group = flexRender(cell.column.columnDef.cell, cell.getContext());
    return (
      <button type="button" className="link-button" onClick={row.getToggleExpandedHandler()}>
        {row.getIsExpanded() ? "▾" : "▸"} {group} ({row.subRows.length})
      </button>
    );
  }
  if (cell.getIsAggregated())
    return flexRender(cell.column.columnDef.aggregatedCell ?? cell.column.columnDef.cell, cell.getContext());
  return cell.getIsPlaceholder() ? null : flexRender(cell.column.columnDef.cell, cell.getContext());
}

/** Previous and next page of the table, shown only when there is more than one page. */
export function ClientTablePager<T>({ table, caption }: { table: Table<T>; caption: string }) {
  if (table.getPageCount() <= 1) return null;
  return (
    <nav className="pager" aria-label={`${caption} pages`}>
      <button
        type="button"
        className="button-secondary"
        onClick={() => table.previousPage()}
        disabled={!table.getCanPreviousPage()}
      >
        ← Previous
      </button>
      <span>
        Page {table.getState().pagination.pageIndex + 1} of {table.getPageCount()}
      </span>
      <button
        type="button"
        className="button-secondary"
        onClick={() => table.nextPage()}
        disabled={!table.getCanNextPage()}
      >
        Next →
      </button>
    </nav>
  );
}
