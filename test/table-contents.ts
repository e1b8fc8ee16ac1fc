import type { Sql } from "../db/platform/client";

/**
 * Every table of Assay's schemas (`public` and drizzle's bookkeeping) with its rows as sorted text,
 * each row cast whole to text: a multiset of rows, every column compared, whatever the table's key.
 */
export async function tableContents(sql: Sql): Promise<Map<string, string[]>> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`;
  const contents = new Map<string, string[]>();
  for (const { name } of tables) {
    const rows = await sql.unsafe<{ row: string }[]>(`select t::text as row from ${name} t order by 1`);
    contents.set(
      name,
      rows.map((r) => r.row),
    );
  }
  return contents;
}

/** Whether the database has any table or sequence of its own: false for one nothing was written to. */
export async function hasSchema(sql: Sql): Promise<boolean> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'S', 'v')`;
  return n > 0;
}
