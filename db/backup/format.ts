import { z } from "zod";

/**
 * An Assay backup archive, version 1: gzip (node:zlib) of a text stream of lines.
 *
 * 1. The header, one JSON line:
 *    `{"format":"assay-backup","version":1,"createdAt":ISO-8601,
 *      "migrations":{"count":N,"lastHash":sha256,"lastCreatedAt":ms},
 *      "tables":[{"name":"schema.table","rows":n,"columns":[…]}, …],
 *      "sequences":[{"name":"schema.sequence","lastValue":"digits"|null}, …]}`.
 *    `migrations` is the database's version as drizzle records it in `drizzle.__drizzle_migrations`
 *    (how many migrations, the last one's file hash and journal time). `tables` lists every table of
 *    the `public` and `drizzle` schemas in foreign-key order (a table after those it references), with
 *    its row count and the columns in the order the rows give them. `lastValue` is a sequence's
 *    value at backup time (text: it is a bigint), null when it was never used.
 * 2. For each table in header order: exactly `rows` lines of PostgreSQL's COPY text format (tab
 *    between columns, `\N` for null, backslash escapes, so a row is always one line), then a line `\.`.
 * 3. The trailer, one JSON line: `{"end":"assay-backup","tables":T}`; nothing after it.
 *
 * Dates are written with DateStyle ISO and TimeZone UTC, floats with extra_float_digits 3, so the text
 * reads back to the same values whatever the settings of either server.
 */
export const ARCHIVE_FORMAT = "assay-backup";
export const ARCHIVE_VERSION = 1;
export const END_OF_TABLE = "\\.";

/** A refusal or failure of a backup or restore, as one sentence the user can act on. */
export class BackupError extends Error {}

const identifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;
const qualifiedName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_$]*\.[A-Za-z_][A-Za-z0-9_$]*$/, "must be schema.name");

export const archiveHeaderSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int().min(1),
  createdAt: z.string().datetime(),
  migrations: z.object({
    count: z.number().int().min(1),
    lastHash: z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 in hex"),
    lastCreatedAt: z.number().int().nullable(),
  }),
  tables: z
    .array(
      z.object({
        name: qualifiedName,
        rows: z.number().int().min(0),
        columns: z.array(z.string().regex(identifier, "must be a plain column name")).min(1),
      }),
    )
    .min(1),
  sequences: z.array(
    z.object({
      name: qualifiedName,
      lastValue: z
        .string()
        .regex(/^-?\d+$/)
        .nullable(),
    }),
  ),
});

export type ArchiveHeader = z.infer<typeof archiveHeaderSchema>;
export type ArchiveTable = ArchiveHeader["tables"][number];

export const archiveTrailerSchema = z.object({ end: z.literal(ARCHIVE_FORMAT), tables: z.number().int() });

/** A double-quoted identifier, safe to splice into SQL whatever it holds. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `schema.table` as SQL: each part quoted. */
export const quoteQualified = (qualified: string) => qualified.split(".").map(quoteIdent).join(".");

/** What a backup or restore reports as it goes: rows done of all rows, and the table being copied. */
export type Progress = (done: number, total: number, table: string) => void;
