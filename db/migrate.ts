import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
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
  const { db, sql: client } = createDb(url, { max: 1 });
  try {
    await client`select pg_advisory_lock(${START_LOCK})`;
    return await work(db);
  } finally {
    await client`select pg_advisory_unlock(${START_LOCK})`.catch(() => {});
    await client.end();
  }
}

/**
 * Applies every migration in `migrations/` not yet applied; safe to run on every start, and at once
 * (under the start lock). Then grants the app's role (`assay_app`, the trust migration) rows of every
 * table, later migrations' included; run it as the tables' owner.
 */
export async function applyMigrations(url: string): Promise<void> {
  await underStartLock(url, async (db) => {
    await migrate(db, { migrationsFolder });
    await db.execute(sql`select assay_grant_app_role()`);
  });
}
