import type postgres from "postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrationsFolder } from "../migrate";
import { BackupError, type ArchiveHeader } from "./format";

/** This code's migrations, from `migrations/meta/_journal.json`, each with the hash drizzle records. */
export const codeMigrations = () => readMigrationFiles({ migrationsFolder });

/**
 * Refuses an archive this code cannot load: one made at a schema version it does not know (more
 * migrations than its journal, or a different last migration at that place).
 */
export function checkArchiveVersion(header: ArchiveHeader, known = codeMigrations()) {
  const { count, lastHash } = header.migrations;
  if (count > known.length) {
    throw new BackupError(
      `The archive was made at migration ${count}, newer than this Assay (${known.length} migrations); restore it with the Assay that made it or a newer one.`,
    );
  }
  if (known[count - 1].hash !== lastHash) {
    throw new BackupError(
      `The archive's migration ${count} differs from this Assay's (another schema history); restore it with the Assay that made it.`,
    );
  }
}

/**
 * Applies this code's first `count` migrations inside the caller's transaction, as drizzle's migrator
 * would (same bookkeeping table), but without recording them: the archive brings that table's rows.
 * In the caller's transaction, a restore that fails afterwards leaves no schema behind either.
 */
export async function applyMigrationsUpTo(tx: postgres.TransactionSql, count: number) {
  await tx.unsafe(`create schema if not exists "drizzle"`);
  await tx.unsafe(
    `create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const migration of codeMigrations().slice(0, count)) {
    for (const statement of migration.sql) await tx.unsafe(statement);
  }
}
