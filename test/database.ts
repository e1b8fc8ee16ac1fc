import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { createDb, type Db, type Sql } from "../db/platform/client";

export interface TestDatabase {
  db: Db;
  sql: Sql;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database cloned from the migrated template: each test file's data is its own. `empty`: a
 * database with no schema at all, as a new server's (for restores and first migrations).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const templateUrl = inject("templateDatabaseUrl");
  const template = new URL(templateUrl);
  const name = `test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const admin = postgres({ ...adminOptions(template), max: 1, onnotice: () => {} });
  await admin.unsafe(
    `create database ${name}${options.empty ? "" : ` template ${template.pathname.slice(1)}`}`,
  );
  await admin.end();
  const url = Object.assign(new URL(templateUrl), { pathname: `/${name}` }).toString();
  const { db, sql } = createDb(url, { max: 5 });
  return {
    db,
    sql,
    url,
    async drop() {
      await sql.end();
      const cleanup = postgres({ ...adminOptions(template), max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

function adminOptions(url: URL) {
  return {
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: "postgres",
  };
}
