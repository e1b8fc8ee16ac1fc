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
/** Connections of a test database's pool. */
const POOL = 5;

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
  const { db, sql } = createDb(url, { max: POOL });
  // Open every connection now. Tests compute results in-process (runInProcess), which blocks the event
  // loop for seconds on a loaded machine; a connection the pool happened to be opening meanwhile would
  // see its 1.5 s connect timeout fire when the loop frees, before its handshake is read (the app runs
  // that work in the worker pool, so its loop never blocks that long).
  await Promise.all(Array.from({ length: POOL }, () => sql`select pg_sleep(0.05)`));
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
