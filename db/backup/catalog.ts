import type postgres from "postgres";
import { BackupError, quoteQualified } from "./format";

type Tx = postgres.TransactionSql;

/** Assay's data lives in `public`; drizzle keeps the migration version in `drizzle`. */
const SCHEMAS = ["public", "drizzle"];

export interface CatalogTable {
  /** `schema.table` */
  name: string;
  /** Stored columns in column order (generated columns are computed again, so left out). */
  columns: string[];
}

/**
 * Every plain table of Assay's schemas, from the catalog, in foreign-key order: a table comes after
 * every table it references, so loading them in this order never meets a missing parent row.
 */
export async function catalogTables(tx: Tx): Promise<CatalogTable[]> {
  const columns = await tx<{ table: string; column: string }[]>`
    select n.nspname || '.' || c.relname as table, a.attname as column
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where c.relkind = 'r' and not c.relispartition and n.nspname = any(${SCHEMAS})
    order by 1, a.attnum`;
  const references = await tx<{ table: string; parent: string }[]>`
    select cn.nspname || '.' || c.relname as table, pn.nspname || '.' || p.relname as parent
    from pg_constraint f
    join pg_class c on c.oid = f.conrelid join pg_namespace cn on cn.oid = c.relnamespace
    join pg_class p on p.oid = f.confrelid join pg_namespace pn on pn.oid = p.relnamespace
    where f.contype = 'f' and cn.nspname = any(${SCHEMAS}) and f.conrelid <> f.confrelid`;
  const tables = new Map<string, string[]>();
  for (const { table, column } of columns) tables.set(table, [...(tables.get(table) ?? []), column]);
  return foreignKeyOrder([...tables.keys()], references).map((name) => ({
    name,
    columns: tables.get(name)!,
  }));
}

/** Kahn's topological sort, ties broken by name so the order is the same on every run. */
export function foreignKeyOrder(names: string[], references: { table: string; parent: string }[]): string[] {
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const r of references)
    if (parents.has(r.table) && parents.has(r.parent)) parents.get(r.table)!.add(r.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names
      .filter((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) {
      const rest = names.filter((n) => !placed.has(n)).join(", ");
      throw new BackupError(`The tables ${rest} reference each other in a cycle, so no load order exists.`);
    }
    ordered.push(ready[0]);
    placed.add(ready[0]);
  }
  return ordered;
}

export interface CatalogSequence {
  /** `schema.sequence` */
  name: string;
  /** The column it numbers (serial, bigserial, identity), when it belongs to one. */
  owner: { table: string; column: string } | null;
}

/** Every sequence of Assay's schemas and the column that owns it, if any. */
export async function catalogSequences(tx: Tx): Promise<CatalogSequence[]> {
  const rows = await tx<{ name: string; table: string | null; column: string | null }[]>`
    select sn.nspname || '.' || s.relname as name, tn.nspname || '.' || t.relname as table, a.attname as column
    from pg_class s join pg_namespace sn on sn.oid = s.relnamespace
    left join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass
      and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    left join pg_class t on t.oid = d.refobjid left join pg_namespace tn on tn.oid = t.relnamespace
    left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and sn.nspname = any(${SCHEMAS})
    order by 1`;
  return rows.map((r) => ({
    name: r.name,
    owner: r.table && r.column ? { table: r.table, column: r.column } : null,
  }));
}

/** Enabled user triggers that fire on INSERT (tgtype bit 4), by table: a COPY would fire them. */
export async function insertTriggers(tx: Tx): Promise<{ table: string; trigger: string }[]> {
  return tx<{ table: string; trigger: string }[]>`
    select n.nspname || '.' || c.relname as table, t.tgname as trigger
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and (t.tgtype & 4) <> 0 and t.tgenabled <> 'D' and n.nspname = any(${SCHEMAS})
    order by 1, 2`;
}

export interface AppliedMigration {
  hash: string;
  createdAt: number | null;
}

/** The migrations drizzle recorded as applied, oldest first; none when it never ran here. */
export async function appliedMigrations(tx: Tx): Promise<AppliedMigration[]> {
  const [{ exists }] = await tx<
    { exists: boolean }[]
  >`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  if (!exists) return [];
  const rows = await tx<
    { hash: string; created_at: string | null }[]
  >`select hash, created_at from drizzle.__drizzle_migrations order by id`;
  return rows.map((r) => ({ hash: r.hash, createdAt: r.created_at === null ? null : Number(r.created_at) }));
}

/** Row counts of `tables`, in their order, in one statement (so one snapshot). */
export async function countRows(tx: Tx, tables: { name: string }[]): Promise<number[]> {
  if (tables.length === 0) return [];
  const counts = tables.map(
    (t, i) => `select ${i} as i, count(*)::bigint::text as n from ${quoteQualified(t.name)}`,
  );
  const rows = await tx.unsafe<{ i: number; n: string }[]>(counts.join(" union all "));
  const byIndex = new Map(rows.map((r) => [Number(r.i), Number(r.n)]));
  return tables.map((_, i) => byIndex.get(i)!);
}

/** Sequence values now (sequences are outside transactions: at least what the snapshot used). */
export async function sequenceValues(tx: Tx): Promise<{ name: string; lastValue: string | null }[]> {
  return tx<{ name: string; lastValue: string | null }[]>`
    select schemaname || '.' || sequencename as name, last_value::text as "lastValue"
    from pg_sequences where schemaname = any(${SCHEMAS}) order by 1`;
}

/**
 * Session settings under which COPY's text is the same on every server: ISO dates in UTC, floats
 * with every digit, hex bytea, UTF-8. `set local`: they end with the transaction.
 */
export async function useArchiveSettings(tx: Tx) {
  for (const setting of [
    "timezone = 'UTC'",
    "datestyle = 'ISO, YMD'",
    "intervalstyle = 'postgres'",
    "extra_float_digits = 3",
    "bytea_output = 'hex'",
    "client_encoding = 'UTF8'",
  ]) {
    await tx.unsafe(`set local ${setting}`);
  }
}
