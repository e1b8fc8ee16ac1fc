import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "./config";
import { startEmbeddedPostgres } from "./embedded";
import { EMBEDDED_USER, LEGACY_PASSWORD, readEmbeddedPassword } from "./embedded-password";

export interface Connection {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The database for this process: DATABASE_URL when set; otherwise the embedded cluster under the
 * data directory, reusing it when another Assay process (a running `npm start`) already serves it,
 * since two servers cannot share one data directory.
 */
export async function connectDatabase(config: Config): Promise<Connection> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, close: async () => {} };
  const running = await runningEmbeddedUrl(config.dataDir);
  if (running) return { url: running, embedded: true, close: async () => {} };
  const server = await startEmbeddedPostgres(config);
  return { url: server.url, embedded: true, close: () => server.stop() };
}

/**
 * The URL of the embedded PostgreSQL another process serves from `dataDir`, or null when none runs.
 * Its password is the one stored beside the cluster (a cluster from before that file still has the
 * legacy one until a server start migrates it).
 */
export async function runningEmbeddedUrl(dataDir: string, database = "assay"): Promise<string | null> {
  const port = await runningEmbeddedPort(path.join(dataDir, "postgres"));
  if (!port) return null;
  const password = (await readEmbeddedPassword(dataDir)) ?? LEGACY_PASSWORD;
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** postmaster.pid holds the server's pid on line 1 and its port on line 4. */
export async function runningEmbeddedPort(databaseDir: string): Promise<number | null> {
  try {
    const lines = (await fs.readFile(path.join(databaseDir, "postmaster.pid"), "utf8")).split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    process.kill(pid, 0);
    return Number.isInteger(port) && port > 0 ? port : null;
  } catch {
    return null;
  }
}
