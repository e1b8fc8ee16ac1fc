import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb, type Db } from "./platform/client";

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../migrations");

/** The advisory lock under which a start migrates and seeds: any number 64-bit, fixed for Assay. */
const START_LOCK = 0x4173736179; // "Assay"

/**
 * Runs `work` holding the start lock (a session-level advisory lock on this one connection), so that
 * app processes starting at once on one database migrate and seed one after the other: the first does
 * it, the next finds it done.
 */
export async function underStartLock<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const { db, sql } = createDb(url, { max: 1 });
  try {
    await sql`select pg_advisory_lock(${START_LOCK})`;
    return await work(db);
  } finally {
    await sql`select pg_advisory_unlock(${START_LOCK})`.catch(() => {});
    await sql.end();
  }
}

/** Applies every migration in `migrations/` not yet applied; safe to run on every start, and at once. */
export async function applyMigrations(url: string): Promise<void> {
  await underStartLock(url, (db) => migrate(db, { migrationsFolder }));
}
