import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { Sql } from "../platform/client";
import { appliedMigrations, catalogTables, countRows, sequenceValues, useArchiveSettings } from "./catalog";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  END_OF_TABLE,
  quoteIdent,
  quoteQualified,
  type ArchiveHeader,
  type Progress,
} from "./format";
import { drained } from "./lines";

export interface BackupSummary {
  tables: number;
  rows: number;
  /** How many migrations the database had: the archive's schema version. */
  migrations: number;
}

/**
 * Writes an archive of the whole database to `output` (format: see `format.ts`), from one REPEATABLE
 * READ, READ ONLY transaction, so every table is read at the same instant while the server keeps
 * running. Rows stream from PostgreSQL's COPY through gzip to `output`; none is held in memory.
 * On failure `output` is destroyed and the error thrown: the caller discards what was written.
 */
export async function writeBackup(
  sql: Sql,
  output: Writable,
  options: { onProgress?: Progress; now?: Date } = {},
): Promise<BackupSummary> {
  const gzip = createGzip();
  const delivered = pipeline(gzip, output);
  delivered.catch(() => {}); // Its failure also fails the writes below; awaited at the end.
  const put = async (text: string) => {
    if (!gzip.write(text)) await drained(gzip);
  };
  try {
    const summary = await sql.begin("isolation level repeatable read read only", async (tx) => {
      await useArchiveSettings(tx);
      const migrations = await appliedMigrations(tx);
      const last = migrations.at(-1);
      if (!last)
        throw new BackupError(
          "The database has no Assay schema yet (no migration was applied): there is nothing to back up.",
        );
      const tables = await catalogTables(tx);
      const counts = await countRows(tx, tables);
      const header: ArchiveHeader = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        createdAt: (options.now ?? new Date()).toISOString(),
        migrations: { count: migrations.length, lastHash: last.hash, lastCreatedAt: last.createdAt },
        tables: tables.map((t, i) => ({ name: t.name, rows: counts[i], columns: t.columns })),
        sequences: await sequenceValues(tx),
      };
      await put(JSON.stringify(header) + "\n");
      const total = counts.reduce((a, b) => a + b, 0);
      let done = 0;
      for (const [i, table] of tables.entries()) {
        options.onProgress?.(done, total, table.name);
        const rows = await tx
          .unsafe(
            `copy ${quoteQualified(table.name)} (${table.columns.map(quoteIdent).join(", ")}) to stdout`,
          )
          .readable();
        let lines = 0;
        for await (const chunk of rows as AsyncIterable<Buffer>) {
          const n = newlines(chunk);
          lines += n;
          done += n;
          if (!gzip.write(chunk)) await drained(gzip);
          if (n) options.onProgress?.(done, total, table.name);
        }
        // postgres.js leaves the connection's socket paused when a table's last rows fill the stream's buffer
        // and its end arrives in the same packet (porsager/postgres#499, fix pending in #1016): the next
        // query would wait forever. The stream's read hook resumes the socket; harmless when it flows.
        (rows as Readable)._read(0);
        // The snapshot makes this impossible; if it ever happens the archive would not load, so say so now.
        if (lines !== counts[i])
          throw new BackupError(
            `The table ${table.name} gave ${lines} rows where it counted ${counts[i]}; the backup was abandoned.`,
          );
        await put(END_OF_TABLE + "\n");
      }
      await put(JSON.stringify({ end: ARCHIVE_FORMAT, tables: tables.length }) + "\n");
      return { tables: tables.length, rows: total, migrations: migrations.length };
    });
    gzip.end();
    await delivered;
    return summary;
  } catch (error) {
    gzip.destroy(error as Error);
    throw error;
  }
}

/** Line feeds in a chunk of COPY text: one per row, since COPY escapes those inside values. */
function newlines(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n += 1;
  return n;
}
