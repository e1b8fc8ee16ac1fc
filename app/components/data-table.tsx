import { useSearchParams } from "@remix-run/react";
import { flexRender, getCoreRowModel, useReactTable, type Cell, type ColumnDef } from "@tanstack/react-table";
import { LinkPager } from "~/components/link-pager";
import { numericClass, ServerTableHead, ServerTableSearch } from "~/components/server-table-parts";
import { TableScroll } from "~/components/table-scroll";
import { idClass } from "~/utils/id-like";

/** A number column's cells align as numbers; an id ("cand-0001") is kept on one line. */
const cellClass = <T,>(cell: Cell<T, unknown>) =>
  numericClass(cell.column.columnDef) ?? idClass(cell.getValue());

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
  /** Keyset cursors of the next and previous pages, where the list pages by keyset (any depth is fast). */
  cursors?: { next: string | null; prev: string | null };
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
  cursors,
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
    // A cursor belongs to one page of one order: any other change starts from a page number again.
    next.delete("after");
    next.delete("before");
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    return `?${next.toString()}`;
  };
  // The neighbouring pages go by cursor where there is one, so paging on stays fast at any depth.
  const pageHref = (p: number) => {
    const cursor = p === page + 1 ? cursors?.next : p === page - 1 ? cursors?.prev : null;
    const key = p === page + 1 ? "after" : "before";
    return withParams(cursor ? { page: String(p), [key]: cursor } : { page: String(p) });
  };
  return (
    <div>
      {searchLabel ? (
        <ServerTableSearch label={searchLabel} query={params.get("q") ?? ""} sort={sort} dir={dir} />
      ) : null}
      <TableScroll label={caption}>
        <table>
          <caption
            className="muted"
            style={{ textAlign: "left", captionSide: "top", paddingBottom: "0.4rem" }}
          >
            {caption}: {total.toLocaleString("en")} in all
          </caption>
          <ServerTableHead table={table} sort={sort} dir={dir} sortable={sortable} withParams={withParams} />
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
                    <td key={cell.id} className={cellClass(cell)}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
      <LinkPager label="Pages" page={page} pageCount={pageCount} href={pageHref} />
    </div>
  );
}
