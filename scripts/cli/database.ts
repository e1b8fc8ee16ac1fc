import { createDb, type Db, type Sql } from "../../db/platform/client";
import { ConfigError, loadConfig } from "../../db/platform/config";
import { connectDatabase } from "../../db/platform/connect";
import { applyMigrations } from "../../db/migrate";
import { CliError } from "./errors";

/**
 * Runs `work` against the configured database. The embedded default is migrated on the way in, as
 * `npm start` does; a DATABASE_URL server is expected to be migrated with `npm run db:migrate`.
 * `migrate: false` leaves the schema as found (backup and restore work at the archive's version).
 */
export async function withDatabase<T>(
  work: (db: Db, sql: Sql) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
  const connection = await connectDatabase(config);
  const { db, sql } = createDb(connection.url, { max: 4 });
  try {
    if (connection.embedded && options.migrate !== false) await applyMigrations(connection.url);
    return await work(db, sql);
  } finally {
    await sql.end();
    await connection.close();
  }
}
