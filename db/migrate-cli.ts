import { applyMigrations } from "./migrate";
import { ConfigError, loadConfig } from "./platform/config";
import { connectDatabase } from "./platform/connect";

// `npm run db:migrate`: applies migrations to DATABASE_URL, or to the embedded database when it is unset.
try {
  const config = loadConfig();
  const connection = await connectDatabase(config);
  await applyMigrations(connection.url);
  console.log(`Migrations applied to ${redact(connection.url)}.`);
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
