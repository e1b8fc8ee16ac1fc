import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb } from "./platform/client";

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../migrations");

/**
 * Applies every migration in `migrations/` not yet applied; safe to run on every start. Then grants
 * the app's role (`assay_app`, migrations/0011) rows of every table, later migrations' included; run
 * it as the tables' owner.
 */
export async function applyMigrations(url: string): Promise<void> {
  const { db, sql } = createDb(url, { max: 1 });
  try {
    await migrate(db, { migrationsFolder });
    await sql`select assay_grant_app_role()`;
  } finally {
    await sql.end();
  }
}
