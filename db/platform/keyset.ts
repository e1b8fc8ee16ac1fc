import { asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";

/** Search, sort and page of a server-paginated list, as the URL gives them. */
export interface Page {
  q: string;
  sort: string;
  dir: "asc" | "desc";
  page: number;
  size: number;
}

/**
 * Where a page starts: after (next page) or before (previous page) the row with this sort value and
 * id, as the URL's cursor carries it. A page from a cursor reads only its own rows, at any depth.
 */
export interface Cursor {
  after?: [string, number];
  before?: [string, number];
}

/** A row as a keyset page reads it: its id and its sort value as text (what a cursor carries). */
export interface KeyedRow {
  id: number;
  key: string;
}

const order = (column: AnyColumn | SQL, dir: "asc" | "desc") => (dir === "asc" ? asc(column) : desc(column));

/**
 * How to read one page of a list sorted by `column`, ties broken by `id` in the same direction, so the
 * order is total and an index on (column, id) serves it read forwards or backwards.
 *
 * With the list's `total`, a page asked by number in the second half of the list is read backwards from
 * the end (the order reversed, an offset counted from the last row), so the last page reads only its
 * own rows, as the first does, and no page skips more than half the list.
 *
 * `keyed` says the column can carry a cursor: it is never null and the same for the same row from one
 * page to the next (a count per row is neither cheap nor stable, so such a sort pages by offset). From a
 * cursor the page starts past the cursor's row with one row comparison, `(column, id) > (value, id)`,
 * which PostgreSQL answers from the index without reading the rows before it; a page asked by number
 * skips rows with OFFSET. A previous page is read backwards and `finish` puts it back in order.
 */
export function keysetPage(
  page: Pick<Page, "dir" | "page" | "size"> & Cursor & { total?: number },
  sort: { column: AnyColumn | SQL; id: AnyColumn | SQL; keyed: boolean },
) {
  const cursor = sort.keyed ? (page.after ?? page.before) : undefined;
  const skip = (page.page - 1) * page.size;
  const total = page.total;
  const fromEnd = !cursor && total !== undefined && skip > total / 2;
  const backwards = Boolean(cursor && !page.after) || fromEnd;
  const dir = backwards ? (page.dir === "asc" ? "desc" : "asc") : page.dir;
  const where = cursor
    ? dir === "asc"
      ? sql`(${sort.column}, ${sort.id}) > (${cursor[0]}, ${cursor[1]})`
      : sql`(${sort.column}, ${sort.id}) < (${cursor[0]}, ${cursor[1]})`
    : undefined;
  return {
    /** The sort value as text, to select as `key` beside `id`. */
    key: sql<string>`${sort.column}::text`,
    where,
    orderBy: [order(sort.column, dir), order(sort.id, dir)],
    limit: fromEnd ? Math.max(0, Math.min(page.size, total! - skip)) : page.size,
    offset: cursor ? 0 : fromEnd ? Math.max(0, total! - skip - page.size) : skip,
    /** The rows in the page's order, and the cursors of its first and last rows (none if not keyed). */
    finish<T extends KeyedRow>(rows: T[]) {
      if (backwards) rows.reverse();
      const edge = (r: T | undefined) => (sort.keyed && r ? ([r.key, r.id] as [string, number]) : null);
      return { rows, edges: { first: edge(rows[0]), last: edge(rows[rows.length - 1]) } };
    },
  };
}

/** The details of a page's rows, read by id in a second step, back in the page's order. */
export function inPageOrder<T extends { id: number }>(ids: { id: number }[], details: T[]): T[] {
  const byId = new Map(details.map((d) => [d.id, d]));
  return ids.map((r) => byId.get(r.id)!);
}
