import { applyMigrations } from "./migrate";
import { ConfigError, loadConfig } from "./platform/config";
import { connectDatabase } from "./platform/connect";

// `npm run db:migrate`: applies migrations as MIGRATE_DATABASE_URL (the tables' owner) when set, else to
// DATABASE_URL, or to the embedded database when both are unset; then grants the app role (assay_app).
try {
  const config = loadConfig();
  const connection = await connectDatabase(config);
  const url = config.MIGRATE_DATABASE_URL ?? connection.url;
  await applyMigrations(url);
  console.log(`Migrations applied to ${redact(url)}.`);
  await connection.close();
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`,
  );
  process.exit(1);
}

function redact(url: string) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
