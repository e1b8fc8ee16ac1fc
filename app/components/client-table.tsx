import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  getFilteredRowModel,
  getGroupedRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type GroupingState,
  type SortingState,
  type VisibilityState,
} from "@tanstack/react-table";
import { useEffect, useState } from "react";
import { tableCsv } from "./table-csv";
import { TableScroll } from "~/components/table-scroll";

/**
 * A results table in the browser: filter the rows by text, sort by any column, group by one, choose
 * the columns, page through long tables, and download exactly what is shown (the rows the filter
 * keeps, visible columns, current order) as CSV.
 */
export function ClientTable<T extends Record<string, unknown>>({
  data,
  columns,
  caption,
  fileName,
  groupable = [],
  pageSize = 25,
  initiallyHidden = [],
}: {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  caption: string;
  fileName: string;
  groupable?: string[];
  pageSize?: number;
  initiallyHidden?: string[];
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [grouping, setGrouping] = useState<GroupingState>([]);
  // A hidden column is still searched by the filter (code names findable beside display names).
  const [visibility, setVisibility] = useState<VisibilityState>(() =>
    Object.fromEntries(initiallyHidden.map((id) => [id, false])),
  );
  const [filter, setFilter] = useState("");
  const table = useReactTable({
    data,
    columns,
    state: { sorting, grouping, columnVisibility: visibility, globalFilter: filter },
    onGlobalFilterChange: setFilter,
    onSortingChange: setSorting,
    onGroupingChange: setGrouping,
    onColumnVisibilityChange: setVisibility,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getGroupedRowModel: getGroupedRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    autoResetExpanded: false,
    initialState: { pagination: { pageSize } },
  });
  // Printed, a table shows every row, not the page on screen.
  useEffect(() => {
    let onScreen = pageSize;
    const before = () => {
      onScreen = table.getState().pagination.pageSize;
      table.setPageSize(Math.max(data.length, 1));
    };
    const after = () => table.setPageSize(onScreen);
    window.addEventListener("beforeprint", before);
    window.addEventListener("afterprint", after);
    return () => {
      window.removeEventListener("beforeprint", before);
      window.removeEventListener("afterprint", after);
    };
  }, [table, data.length, pageSize]);
  const download = () => {
    const csv = tableCsv(table);
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    // A named group, so its tools are found by the table they belong to when a page has several.
    <div role="group" aria-label={caption}>
      <div className="toolbar">
        {data.length > pageSize ? (
          <div>
            <label htmlFor={`${fileName}-filter`}>Filter rows</label>
            <input
              id={`${fileName}-filter`}
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="text in any column"
            />
          </div>
        ) : null}
        {groupable.length ? (
          <div>
            <label htmlFor={`${fileName}-group`}>Group by</label>
            <select
              id={`${fileName}-group`}
              value={grouping[0] ?? ""}
              onChange={(e) => setGrouping(e.target.value ? [e.target.value] : [])}
            >
              <option value="">nothing</option>
              {groupable.map((g) => (
                <option key={g} value={g}>
                  {String(table.getColumn(g)?.columnDef.header ?? g)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <details>
          <summary>Columns</summary>
          {table.getAllLeafColumns().map((c) => (
            <label key={c.id} style={{ fontWeight: 400, display: "block" }}>
              <input type="checkbox" checked={c.getIsVisible()} onChange={c.getToggleVisibilityHandler()} />{" "}
              {String(c.columnDef.header ?? c.id)}
            </label>
          ))}
        </details>
        <button type="button" className="button-secondary" onClick={download}>
          Download CSV
        </button>
      </div>
      <TableScroll label={caption}>
        <table aria-label={caption}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((h) => (
                  <th
                    key={h.id}
                    aria-sort={
                      h.column.getIsSorted() === "asc"
                        ? "ascending"
                        : h.column.getIsSorted() === "desc"
                          ? "descending"
                          : undefined
                    }
                  >
                    <button
                      type="button"
                      className="link-button"
                      onClick={h.column.getToggleSortingHandler()}
                    >
                      {flexRender(h.column.columnDef.header, h.getContext())}{" "}
                      {h.column.getIsSorted() === "asc" ? "▲" : h.column.getIsSorted() === "desc" ? "▼" : ""}
                    </button>
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td colSpan={table.getVisibleLeafColumns().length} className="muted">
                  {data.length ? `No rows contain “${filter}”.` : "Nothing to show yet."}
                </td>
              </tr>
            ) : null}
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={typeof cell.getValue() === "number" ? "num" : undefined}>
                    {cell.getIsGrouped() ? (
                      <button type="button" className="link-button" onClick={row.getToggleExpandedHandler()}>
                        {row.getIsExpanded() ? "▾" : "▸"}{" "}
                        {flexRender(cell.column.columnDef.cell, cell.getContext())} ({row.subRows.length})
                      </button>
                    ) : cell.getIsAggregated() ? (
                      flexRender(
                        cell.column.columnDef.aggregatedCell ?? cell.column.columnDef.cell,
                        cell.getContext(),
                      )
                    ) : cell.getIsPlaceholder() ? null : (
                      flexRender(cell.column.columnDef.cell, cell.getContext())
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {table.getPageCount() > 1 ? (
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
      ) : null}
    </div>
  );
}
