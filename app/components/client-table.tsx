import {
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
import { useState } from "react";
import { ClientTableBody, ClientTableHead, ClientTablePager } from "~/components/client-table-rows";
import { ClientTableToolbar } from "~/components/client-table-toolbar";
import { TableScroll } from "~/components/table-scroll";
import { usePrintEveryRow } from "~/components/use-print-every-row";

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
  usePrintEveryRow(table, data.length, pageSize);
  return (
    // A named group, so its tools are found by the table they belong to when a page has several.
    <div role="group" aria-label={caption}>
      <ClientTableToolbar
        table={table}
        fileName={fileName}
        showFilter={data.length > pageSize}
        filter={filter}
        onFilter={setFilter}
        groupable={groupable}
        grouping={grouping}
        onGrouping={setGrouping}
      />
      <TableScroll label={caption}>
        <table aria-label={caption}>
          <ClientTableHead table={table} />
          <ClientTableBody table={table} rowCount={data.length} filter={filter} />
        </table>
      </TableScroll>
      <ClientTablePager table={table} caption={caption} />
    </div>
  );
}
