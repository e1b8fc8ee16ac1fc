import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { json } from "@remix-run/node";
import { Piscina } from "piscina";
import { loadConfig } from "../../db/platform/config";
import { bundledWorkerFile } from "../../scripts/workers/run-worker";
import type { HeavyInput, HeavyOutput, HeavyRunner, HeavyTask } from "../../scripts/workers/heavy-tasks";
import type { ProgressCells } from "../../scripts/lib/progress";

/**
 * The app's one pool for heavy work: bootstraps, reports and snapshots run in worker threads, so a
 * B = 10,000 report does not hold `/healthz` and event ingestion for seconds. Routes load their data
 * from the database on the event loop, then hand plain data to `runInWorkerPool`.
 */

/** Tasks waiting for a thread beyond which a new one is refused (503) rather than queued for minutes. */
const QUEUE_PER_THREAD = 4;
/** What a refused request is told to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = 10;

export interface WorkerPool {
  run: HeavyRunner;
  /** Tasks waiting for a thread right now. */
  queued(): number;
  close(): Promise<void>;
}

/**
 * A pool of `threads` workers (started on first use) that refuses a task when `maxQueue` already wait.
 * `nice` (default 10) lowers the workers' priority below the event loop's.
 */
export function createWorkerPool(options: { threads: number; maxQueue: number; nice?: number }): WorkerPool {
  let piscina: Piscina | null = null;
  const start = () =>
    (piscina ??= new Piscina({
      filename: bundledWorkerFile(workerEntry()),
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      // An idle worker is let go after a minute; the next task starts one again (about 50 ms).
      idleTimeout: 60_000,
      // Workers run at a lower priority (Linux: per thread), so when cores are short, requests and
      // the database get the CPU first and a report takes longer, not the other way round.
      niceIncrement: options.nice ?? 10,
    }));
  return {
    run: async <K extends HeavyTask>(task: K, input: HeavyInput<K>, progress?: ProgressCells) => {
      const pool = start();
      if (pool.queueSize >= options.maxQueue) throw busy();
      try {
        // The progress cells are shared memory: the worker writes them, this thread reads them.
        return (await pool.run({ task, input, progress })) as HeavyOutput<K>;
      } catch (error) {
        if (error instanceof Error && /queue is at limit/i.test(error.message)) throw busy();
        throw error;
      }
    },
    queued: () => piscina?.queueSize ?? 0,
    close: async () => {
      const pool = piscina;
      piscina = null;
      await pool?.close({ force: true });
    },
  };
}

/** The 503 of a full queue: thrown from a loader or action, Remix answers with it. */
function busy(): Response {
  return json(
    {
      message: `The server is busy computing other reports; please try again in ${RETRY_AFTER_SECONDS} seconds.`,
    },
    { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
  );
}

// On globalThis, so the Remix bundle and server.ts (which imports this file on its own) share one pool.
const shared = Symbol.for("assay.workerPool");
type WithPool = typeof globalThis & { [shared]?: WorkerPool };

/** Runs a heavy task in the app's pool (sized by WORKER_THREADS, see db/platform/config.ts), started on first use. */
export const runInWorkerPool: HeavyRunner = (task, input, progress) => {
  const holder = globalThis as WithPool;
  if (!holder[shared]) {
    const { workerThreads: threads, WORKER_NICE: nice } = loadConfig(process.env);
    holder[shared] = createWorkerPool({ threads, maxQueue: threads * QUEUE_PER_THREAD, nice });
  }
  return holder[shared].run(task, input, progress);
};

/** Tasks waiting in the app's pool (0 before it started), for /metrics. */
export const workerPoolQueue = () => (globalThis as WithPool)[shared]?.queued() ?? 0;

/** Ends the app's pool, if it was started (on server shutdown). */
export async function closeWorkerPool() {
  const holder = globalThis as WithPool;
  const pool = holder[shared];
  delete holder[shared];
  await pool?.close();
}

/**
 * The worker's TypeScript entry. This module runs from app/utils in tests and from the Remix bundle
 * in build/ in production: both sit inside the project, whose root is the nearest package.json.
 */
function workerEntry(): URL {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error("Could not find the project folder (package.json) for the worker pool.");
    dir = parent;
  }
  return pathToFileURL(path.join(dir, "scripts/workers/heavy-worker.ts"));
}
