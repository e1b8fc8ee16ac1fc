import type { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import postgres from "postgres";
import type { Sql } from "../platform/client";
import {
  appliedMigrations,
  catalogSequences,
  catalogTables,
  countRows,
  insertTriggers,
  useArchiveSettings,
  type CatalogTable,
} from "./catalog";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  archiveHeaderSchema,
  archiveTrailerSchema,
  BackupError,
  END_OF_TABLE,
  quoteIdent,
  quoteQualified,
  type ArchiveHeader,
  type ArchiveTable,
  type Progress,
} from "./format";
import { LineReader } from "./lines";
import { applyMigrationsUpTo, checkArchiveVersion, codeMigrations } from "./migrations";

type Tx = postgres.TransactionSql;

export interface RestoreSummary {
  tables: number;
  rows: number;
  /** The archive's schema version, the database's after the restore. */
  migrations: number;
  createdAt: string;
}

/**
 * Loads an archive written by `writeBackup` into an empty database, in one transaction: either every
 * table is restored as archived or nothing is written (schema included). Refuses, with a sentence,
 * a target that has rows or another migration version, an archive newer than this code, and a file
 * that is not a whole Assay backup. A target without migrations first gets this code's migrations up
 * to the archive's version (the caller applies any later ones). Audit and snapshot rows are only
 * inserted, as their triggers allow; the restore itself adds no audit entry, since the archive's log
 * is the history.
 */
export async function restoreBackup(
  sql: Sql,
  input: Readable,
  options: { onProgress?: Progress } = {},
): Promise<RestoreSummary> {
  // Its errors reach the reader through iteration; one raised after the reader gave up must not crash the process.
  const gunzip = createGunzip().on("error", () => {});
  const received = pipeline(input, gunzip);
  received.catch(() => {}); // A read or gzip failure also fails the line reader; awaited at the end.
  const lines = new LineReader(gunzip);
  let loading = "";
  try {
    const header = await readHeader(lines);
    checkArchiveVersion(header);
    const summary = await sql.begin(async (tx) => {
      await useArchiveSettings(tx);
      await prepareTarget(tx, header);
      checkTables(header, await catalogTables(tx));
      // Rows arrive as they were, derived rows included: the events trigger that queues sessions
      // (event_sessions_dirty, event_ids) would queue them twice. ALTER TABLE needs only ownership, not
      // the superuser that session_replication_role does, and ends with the transaction if it fails.
      const archived = new Set(header.tables.map((t) => t.name));
      const triggers = (await insertTriggers(tx)).filter((t) => archived.has(t.table));
      for (const t of triggers)
        await tx.unsafe(`alter table ${quoteQualified(t.table)} disable trigger ${quoteIdent(t.trigger)}`);
      const total = header.tables.reduce((a, t) => a + t.rows, 0);
      let done = 0;
      for (const table of header.tables) {
        loading = table.name;
        options.onProgress?.(done, total, table.name);
        await loadTable(tx, lines, table, (n) => options.onProgress?.((done += n), total, table.name));
      }
      loading = "";
      await readTrailer(lines, header);
      for (const t of triggers)
        await tx.unsafe(`alter table ${quoteQualified(t.table)} enable trigger ${quoteIdent(t.trigger)}`);
      await checkLoaded(tx, header);
      await continueSequences(tx, header);
      return {
        tables: header.tables.length,
        rows: total,
        migrations: header.migrations.count,
        createdAt: header.createdAt,
      };
    });
    await received;
    return summary;
  } catch (error) {
    gunzip.destroy();
    throw explain(error, loading);
  }
}

async function readHeader(lines: LineReader): Promise<ArchiveHeader> {
  const first = await lines.line("header");
  const notOurs = new BackupError(
    "The file is not an Assay backup: it does not start with an Assay backup header.",
  );
  if (first === null) throw new BackupError("The file is not an Assay backup: it holds no data.");
  let json: { format?: unknown; version?: unknown };
  try {
    json = JSON.parse(first);
  } catch {
    throw notOurs;
  }
  if (json?.format !== ARCHIVE_FORMAT) throw notOurs;
  if (typeof json.version === "number" && json.version > ARCHIVE_VERSION) {
    throw new BackupError(
      `The archive is in backup format ${json.version}, newer than this Assay reads (${ARCHIVE_VERSION}); restore it with a newer Assay.`,
    );
  }
  const parsed = archiveHeaderSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`The archive's header is damaged (${issue.path.join(".")}: ${issue.message}).`);
  }
  return parsed.data;
}

/** Migrates an unmigrated target to the archive's version; refuses one at another version or with rows. */
async function prepareTarget(tx: Tx, header: ArchiveHeader) {
  const applied = await appliedMigrations(tx);
  const { count, lastHash } = header.migrations;
  if (applied.length === 0) {
    const [{ tables }] = await tx<{ tables: number }[]>`
      select count(*)::int as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')`;
    if (tables > 0)
      throw new BackupError(
        "The target database has tables but no Assay migrations; restore into a new, empty database.",
      );
    await applyMigrationsUpTo(tx, count);
  } else if (applied.length !== count || applied[count - 1].hash !== lastHash) {
    throw new BackupError(
      `The target database is at migration ${applied.length} and the archive at ${count}; restore into a new, empty database (the restore migrates it to the archive's version).`,
    );
  }
  const tables = await catalogTables(tx);
  // No one writes while the emptiness check holds and the rows go in; readers may still read.
  await tx.unsafe(`lock table ${tables.map((t) => quoteQualified(t.name)).join(", ")} in exclusive mode`);
  const assay = tables.filter((t) => t.name.startsWith("public."));
  const counts = await countRows(tx, assay);
  const filled = assay.filter((_, i) => counts[i] > 0).map((t) => t.name.slice("public.".length));
  if (filled.length) {
    const named =
      filled.length > 4
        ? `${filled.slice(0, 4).join(", ")} and ${filled.length - 4} more`
        : filled.join(", ");
    throw new BackupError(
      `The target database is not empty (${named} have rows); restore only into an empty database.`,
    );
  }
  // Its migration records, if any, are the archive's too: they come back with the archive's rows.
  await tx.unsafe(`delete from "drizzle"."__drizzle_migrations"`);
}

/** The archive must hold exactly the tables and columns this schema version has. */
function checkTables(header: ArchiveHeader, target: CatalogTable[]) {
  const columns = new Map(target.map((t) => [t.name, [...t.columns].sort().join(",")]));
  const seen = new Set<string>();
  for (const table of header.tables) {
    if (seen.has(table.name))
      throw new BackupError(`The archive holds the table ${table.name} twice: the file is damaged.`);
    seen.add(table.name);
    const expected = columns.get(table.name);
    if (expected === undefined)
      throw new BackupError(
        `The archive holds a table ${table.name} that its schema version does not have: the file is damaged.`,
      );
    if ([...table.columns].sort().join(",") !== expected)
      throw new BackupError(
        `The archive's columns of ${table.name} differ from its schema version's: the file is damaged.`,
      );
  }
  const missing = target.filter((t) => !seen.has(t.name)).map((t) => t.name);
  if (missing.length)
    throw new BackupError(
      `The archive lacks the table${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: the file is damaged.`,
    );
}

/** COPYs the table's rows from the archive; on any failure the COPY is aborted so the transaction can roll back. */
async function loadTable(tx: Tx, lines: LineReader, table: ArchiveTable, onLines: (n: number) => void) {
  if (table.rows > 0) {
    const copy = tx.unsafe(
      `copy ${quoteQualified(table.name)} (${table.columns.map(quoteIdent).join(", ")}) from stdin`,
    );
    const refused = copyRefusal(copy);
    const sink = await copy.writable();
    // Its failures (the database refusing a row, or ours passed to destroy) reach us through the writes
    // and `finished`; this listener only keeps them from also counting as unhandled.
    sink.on("error", () => {});
    try {
      await lines.copyLines(table.rows, sink, table.name, onLines);
      sink.end();
      await Promise.race([finished(sink), refused]);
    } catch (error) {
      if (!sink.destroyed) sink.destroy(error as Error);
      throw error;
    }
  }
  const marker = await lines.line(`end marker of ${table.name}`);
  if (marker === null)
    throw new BackupError(`The archive ends after the rows of ${table.name}: the file is truncated.`);
  if (marker !== END_OF_TABLE)
    throw new BackupError(
      `The archive's table ${table.name} has more rows than its header says: the file is damaged.`,
    );
}

/**
 * Rejects with the database's refusal of a COPY's rows. postgres.js fails the COPY's writable when the
 * refusal comes while rows are still being written, but once the writable is ended it only rejects the
 * query (whose promise already resolved to the writable) and never completes the writable: waiting on
 * `finished` alone would then wait forever. This passes that rejection on.
 */
function copyRefusal(copy: object): Promise<never> {
  const query = copy as { reject?: (error: unknown) => void };
  const refused = new Promise<never>((_, reject) => {
    const rejectQuery = query.reject;
    if (typeof rejectQuery !== "function") return;
    query.reject = (error) => {
      reject(error);
      rejectQuery(error);
    };
  });
  refused.catch(() => {}); // awaited only after the rows are sent; a refusal before then fails the writes
  return refused;
}

async function readTrailer(lines: LineReader, header: ArchiveHeader) {
  const line = await lines.line("trailer");
  if (line === null) throw new BackupError("The archive ends before its trailer: the file is truncated.");
  let trailer: unknown;
  try {
    trailer = JSON.parse(line);
  } catch {
    trailer = null;
  }
  const parsed = archiveTrailerSchema.safeParse(trailer);
  if (!parsed.success || parsed.data.tables !== header.tables.length)
    throw new BackupError("The archive's trailer is missing or damaged: the file is damaged.");
  if (!(await lines.atEnd()))
    throw new BackupError("The archive has data after its trailer: the file is damaged.");
}

/** What was loaded is what the header promised, migration records included. */
async function checkLoaded(tx: Tx, header: ArchiveHeader) {
  const counts = await countRows(tx, header.tables);
  header.tables.forEach((t, i) => {
    if (counts[i] !== t.rows)
      throw new BackupError(
        `The archive gave ${counts[i]} rows of ${t.name} where its header says ${t.rows}: the file is damaged.`,
      );
  });
  const loaded = await appliedMigrations(tx);
  const known = codeMigrations().slice(0, header.migrations.count);
  if (loaded.length !== known.length || loaded.some((m, i) => m.hash !== known[i].hash)) {
    throw new BackupError(
      "The archive's migration records do not match its header and this Assay's migrations: the file is damaged.",
    );
  }
}

/**
 * Every sequence continues past both its archived value and the largest id in its column, so new
 * rows never collide and ids of deleted rows (which an audit entry may still name) are not reused.
 */
async function continueSequences(tx: Tx, header: ArchiveHeader) {
  const archived = new Map(header.sequences.map((s) => [s.name, s.lastValue]));
  for (const sequence of await catalogSequences(tx)) {
    const values: bigint[] = [];
    const last = archived.get(sequence.name);
    if (last) values.push(BigInt(last));
    if (sequence.owner) {
      const [{ max }] = await tx.unsafe<{ max: string | null }[]>(
        `select max(${quoteIdent(sequence.owner.column)})::text as max from ${quoteQualified(sequence.owner.table)}`,
      );
      if (max !== null) values.push(BigInt(max));
    }
    if (values.length === 0) continue;
    const next = values.reduce((a, b) => (a > b ? a : b));
    await tx`select setval(${quoteQualified(sequence.name)}::regclass, ${next.toString()}::bigint, true)`;
  }
}

/** Every failure as one sentence that says the database was left as it was. */
function explain(error: unknown, loading: string): Error {
  const nothing = "Nothing was restored.";
  if (error instanceof BackupError) return new BackupError(`${error.message} ${nothing}`);
  const zlib = error as NodeJS.ErrnoException;
  if (zlib?.code === "Z_BUF_ERROR" || zlib?.message === "unexpected end of file") {
    return new BackupError(`The archive is truncated (its gzip data ends early). ${nothing}`);
  }
  if (zlib?.code === "Z_DATA_ERROR") {
    return zlib.message === "incorrect header check"
      ? new BackupError(`The file is not an Assay backup (not gzip data). ${nothing}`)
      : new BackupError(`The archive is damaged (gzip: ${zlib.message}). ${nothing}`);
  }
  if (error instanceof postgres.PostgresError) {
    return new BackupError(
      `The database refused the archive's ${loading ? `rows of ${loading}` : "contents"} (${
        error.message
      }). ${nothing}`,
    );
  }
  return error as Error;
}
