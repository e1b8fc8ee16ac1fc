import { createDb, type Db } from "../../db/client";

let handle: ReturnType<typeof createDb> | undefined;

/** The app's pool, opened on first use against the DATABASE_URL the server settled on at start. */
export function getDb(): Db {
  if (!handle) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Assay with `npm start`.");
    handle = createDb(url);
  }
  return handle.db;
}

export function getSql() {
  getDb();
  return handle!.sql;
}
