import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../platform/client";

type Columns<T extends PgTable> = Partial<Record<keyof T["_"]["columns"], PgColumn>>;

/**
 * The ON CONFLICT … DO UPDATE of an import that rewrites a row only when one of `columns` differs from
 * the file: an unchanged row is then not returned, which is how `tally` tells added, updated and
 * unchanged apart (`xmax = 0` marks the inserted ones). `extra` is set on a real change too (updatedAt).
 */
export function updateWhenChanged<T extends PgTable>(
  _table: T,
  target: PgColumn | PgColumn[],
  columns: Columns<T>,
  extra: Partial<Record<keyof T["_"]["columns"], SQL>> = {},
) {
  const entries = Object.entries(columns) as [string, PgColumn][];
  // Column names come from the schema, never from a file, so quoting them here is enough.
  const excluded = (c: PgColumn) => sql.raw(`excluded."${c.name}"`);
  const set = Object.fromEntries([
    ...entries.map(([key, c]) => [key, excluded(c)]),
    ...Object.entries(extra),
  ]);
  const mine = entries.map(([, c]) => c);
  return {
    target,
    set: set as Partial<Record<keyof T["_"]["columns"], SQL>>,
    setWhere: sql`(${sql.join(mine, sql`, `)}) is distinct from (${sql.join(mine.map(excluded), sql`, `)})`,
  };
}

/** What an upsert did: `inserted` rows are new, the others changed; rows not returned were identical. */
export function tally(returned: { inserted: boolean }[], total: number) {
  const added = returned.filter((r) => r.inserted).length;
  return { added, updated: returned.length - added, unchanged: total - returned.length };
}

/** Marks the rows an upsert inserted (rather than updated) in its `returning`. */
export const insertedFlag = sql<boolean>`(xmax = 0)`;

/**
 * Writes an import's rows with `updateWhenChanged`, in chunks (one statement's parameters stay under
 * PostgreSQL's 65,535), and counts what it did with `tally`.
 */
export async function upsertCounted<T extends PgTable>(
  tx: Tx,
  table: T,
  values: PgInsertValue<T>[],
  target: PgColumn | PgColumn[],
  columns: Columns<T>,
  extra: Partial<Record<keyof T["_"]["columns"], SQL>> = {},
  chunk = 5000,
) {
  const returned: { inserted: boolean }[] = [];
  for (let i = 0; i < values.length; i += chunk)
    returned.push(
      ...(await tx
        .insert(table)
        .values(values.slice(i, i + chunk))
        .onConflictDoUpdate(updateWhenChanged(table, target, columns, extra))
        .returning({ inserted: insertedFlag })),
    );
  return tally(returned, values.length);
}
