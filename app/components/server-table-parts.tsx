import { Form, Link } from "@remix-run/react";
import { flexRender, type ColumnDef, type Header, type Table } from "@tanstack/react-table";

/**
 * A column marked `meta: { numeric: true }` is right-aligned ("num"), header and cells; one marked
 * `meta: { id: true }` holds ids, which never wrap ("id": "prop-0001" on one line).
 */
export const numericClass = <T,>(column: ColumnDef<T, unknown>) => {
  const meta = column.meta as { numeric?: boolean; id?: boolean } | undefined;
  return meta?.numeric ? "num" : meta?.id ? "id" : undefined;
};

/** The search box of a server table: a GET form that keeps the sort order. */
export function ServerTableSearch({
  label,
  query,
  sort,
  dir,
}: {
  label: string;
  query: string;
  sort: string;
  dir: "asc" | "desc";
}) {
  return (
    <Form method="get" className="toolbar" role="search">
      <div>
        <label htmlFor="table-search">{label}</label>
        <input id="table-search" type="search" name="q" defaultValue={query} />
      </div>
      <input type="hidden" name="sort" value={sort} />
      <input type="hidden" name="dir" value={dir} />
      <button type="submit">Search</button>
    </Form>
  );
}

/**
 * The header row of a server table: a sortable column's name links to the table sorted by it (from
 * the first page), ascending unless it already is.
 */
export function ServerTableHead<T>({
  table,
  sort,
  dir,
  sortable,
  withParams,
}: {
  table: Table<T>;
  sort: string;
  dir: "asc" | "desc";
  sortable: string[];
  withParams: (change: Record<string, string>) => string;
}) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => (
            <ServerTableHeader
              key={header.id}
              header={header}
              sort={sort}
              dir={dir}
              sortable={sortable}
              withParams={withParams}
            />
          ))}
        </tr>
      ))}
    </thead>
  );
}

function ServerTableHeader<T>({
  header,
  sort,
  dir,
  sortable,
  withParams,
}: {
  header: Header<T, unknown>;
  sort: string;
  dir: "asc" | "desc";
  sortable: string[];
  withParams: (change: Record<string, string>) => string;
}) {
  const id = header.column.id;
  const active = id === sort;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  return (
    <th
      className={numericClass(header.column.columnDef)}
      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
    >
      {sortable.includes(id) ? (
        <Link to={withParams({ sort: id, dir: active && dir === "asc" ? "desc" : "asc", page: "1" })}>
          {label} {active ? (dir === "asc" ? "▲" : "▼") : ""}
        </Link>
      ) : (
        label
      )}
    </th>
  );
}
