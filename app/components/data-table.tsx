import { Form, Link, useSearchParams } from "@remix-run/react";
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { TableScroll } from "~/components/table-scroll";

export interface ServerTableProps<T> {
  columns: ColumnDef<T, unknown>[];
  rows: T[];
  total: number;
  page: number;
  size: number;
  sort: string;
  dir: "asc" | "desc";
  /** Column ids the server can sort by. */
  sortable: string[];
  searchLabel?: string;
  empty: string;
  caption: string;
}

/**
 * A table whose rows are paged, sorted and searched on the server; its state lives in the URL,
 * so every view is a link, the back button works, and the page works without JavaScript.
 */
export function ServerTable<T>({
  columns,
  rows,
  total,
  page,
  size,
  sort,
  dir,
  sortable,
  searchLabel,
  empty,
  caption,
}: ServerTableProps<T>) {
  const [params] = useSearchParams();
  const pageCount = Math.max(1, Math.ceil(total / size));
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    pageCount,
    state: {
      sorting: [{ id: sort, desc: dir === "desc" }],
      pagination: { pageIndex: page - 1, pageSize: size },
    },
  });
  const withParams = (change: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    return `?${next.toString()}`;
  };
  return (
    <div>
      {searchLabel ? (
        <Form method="get" className="toolbar" role="search">
          <div>
            <label htmlFor="table-search">{searchLabel}</label>
            <input id="table-search" type="search" name="q" defaultValue={params.get("q") ?? ""} />
          </div>
          <input type="hidden" name="sort" value={sort} />
          <input type="hidden" name="dir" value={dir} />
          <button type="submit">Search</button>
        </Form>
      ) : null}
      <TableScroll label={caption}>
        <table>
          <caption
            className="muted"
            style={{ textAlign: "left", captionSide: "top", paddingBottom: "0.4rem" }}
          >
            {caption}: {total.toLocaleString("en")} in all
          </caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const id = header.column.id;
                  const active = id === sort;
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  const className = (header.column.columnDef.meta as { numeric?: boolean } | undefined)
                    ?.numeric
                    ? "num"
                    : undefined;
                  return (
                    <th
                      key={header.id}
                      className={className}
                      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
                    >
                      {sortable.includes(id) ? (
                        <Link
                          to={withParams({
                            sort: id,
                            dir: active && dir === "asc" ? "desc" : "asc",
                            page: "1",
                          })}
                        >
                          {label} {active ? (dir === "asc" ? "▲" : "▼") : ""}
                        </Link>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="empty">
                  {empty}
                </td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={
                        (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric
                          ? "num"
                          : undefined
                      }
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
      <nav className="pager" aria-label="Pages">
        {page > 1 ? (
          <Link to={withParams({ page: String(page - 1) })}>← Previous</Link>
        ) : (
          <span className="muted">← Previous</span>
        )}
        <span>
          Page {page} of {pageCount}
        </span>
        {page < pageCount ? (
          <Link to={withParams({ page: String(page + 1) })}>Next →</Link>
        ) : (
          <span className="muted">Next →</span>
        )}
      </nav>
    </div>
  );
}
