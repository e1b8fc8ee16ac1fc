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
 * since two servers cannot share one data directory. A postmaster nobody supervises any more (its Node
 * process was killed, -9 or a crash) is stopped and started again here, under this process's supervisor:
 * reused as it was, its next death would leave the app without a database for good (issue 26).
 */
export async function connectDatabase(
  config: Config,
  say: (message: string) => void = console.log,
): Promise<Connection> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, close: async () => {} };
  const databaseDir = path.join(config.dataDir, "postgres");
  const orphan = await orphanedPostmaster(databaseDir);
  if (orphan) {
    say(`An embedded PostgreSQL (pid ${orphan}) was left running by a process that is gone; restarting it.`);
    await stopPostmaster(orphan);
  }
  const running = await runningEmbeddedUrl(config.dataDir);
  if (running) return { url: running, embedded: true, close: async () => {} };
  const server = await startEmbeddedPostgres({ ...config, onStatus: say });
  return { url: server.url, embedded: true, close: () => server.stop() };
}

/**
 * The pid of the postmaster running in `databaseDir` when no Assay process owns it: its parent is gone
 * (it was handed to init or a subreaper) or is not Node. Null when none runs, when a Node process owns
 * it, or where /proc does not tell (then it is reused, as before).
 */
export async function orphanedPostmaster(databaseDir: string): Promise<number | null> {
  const pid = await runningPostmasterPid(databaseDir);
  if (!pid) return null;
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, ...
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!(parent > 1)) return pid;
    const command = (await fs.readFile(`/proc/${parent}/comm`, "utf8").catch(() => "")).trim();
    return /^(node|tsx|MainThread)/.test(command) ? null : pid;
  } catch {
    return null;
  }
}

/** Asks a postmaster for a fast shutdown (SIGINT), then an immediate one, until it is gone. */
async function stopPostmaster(pid: number) {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const [signal, waitMs] of [
    ["SIGINT", 20_000],
    ["SIGQUIT", 10_000],
    ["SIGKILL", 10_000],
  ] as const) {
    if (!alive()) return;
    process.kill(pid, signal);
    for (let waited = 0; alive() && waited < waitMs; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
  }
  if (alive()) throw new Error(`the embedded PostgreSQL left running (pid ${pid}) could not be stopped`);
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
  return (await postmasterFile(databaseDir))?.port ?? null;
}

async function runningPostmasterPid(databaseDir: string): Promise<number | null> {
  return (await postmasterFile(databaseDir))?.pid ?? null;
}

/** The live postmaster's pid and port, or null when the file is missing or its server is gone. */
async function postmasterFile(databaseDir: string) {
  try {
    const lines = (await fs.readFile(path.join(databaseDir, "postmaster.pid"), "utf8")).split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    process.kill(pid, 0);
    return Number.isInteger(port) && port > 0 ? { pid, port } : null;
  } catch {
    return null;
  }
}
