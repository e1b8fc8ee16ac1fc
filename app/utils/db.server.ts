import { createDb, type Db } from "../../db/platform/client";

let handle: ReturnType<typeof createDb> | undefined;

/** A statement of a page or report may take this long on the server before it is cancelled. */
export const STATEMENT_TIMEOUT_MS = 120_000;

/**
 * The app's pool, opened on first use against the DATABASE_URL the server settled on at start. It
 * reconnects by itself on the next query after an outage (see `createDb`).
 */
export function getDb(): Db {
  if (!handle) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Assay with `npm start`.");
    handle = createDb(url, { statementTimeoutMs: STATEMENT_TIMEOUT_MS });
  }
  return handle.db;
}

export function getSql() {
  getDb();
  return handle!.sql;
}
