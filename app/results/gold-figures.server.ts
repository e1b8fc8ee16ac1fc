import { createHash } from "node:crypto";
import type { HeavyInput, HeavyOutput, HeavyRunner, HeavyTask } from "../../scripts/workers/heavy-tasks";
import type { GoldRun } from "../../db/campaigns/campaign-truth";
import { createWorkerPool, runInWorkerPool, type WorkerPool } from "./worker-pool.server";

/**
 * The gold figures of a campaign take seconds to tens of seconds (1,000 draws of Dawid–Skene per point
 * of the learning curves), longer than a page should hold its response. So the page waits a little;
 * when the pool has not finished by then it shows "computing" and revalidates, and the result is kept
 * here, keyed by a hash of its whole input (grades, known grades, options): a new grade or gold item
 * makes a new key, so a kept result is never stale. Kept per process, the last few campaigns' worth.
 * They run in a pool of their own (one thread, same workers as `runInWorkerPool`'s, same lowered
 * priority): in the app's pool a long gold job would make every page's figures wait behind it.
 */
const KEEP = 8;
const kept = new Map<string, Promise<HeavyOutput<"goldFigures">>>();
const done = new Map<string, HeavyOutput<"goldFigures">>();

// On globalThis, as the app's pool is, so the Remix bundle and server.ts would share it.
const shared = Symbol.for("assay.goldPool");
type WithPool = typeof globalThis & { [shared]?: WorkerPool };
const goldPool = () => ((globalThis as WithPool)[shared] ??= createWorkerPool({ threads: 1, maxQueue: 4 }));

const keyOf = (input: HeavyInput<"goldFigures">) =>
  createHash("sha256").update(JSON.stringify(input)).digest("hex");

/** Runs the gold figures in the worker pool, waiting at most `waitMs` (Infinity: till done); "computing" when still running. */
export function goldInPool(waitMs: number): GoldRun {
  return async (input) => {
    const key = keyOf(input);
    const ready = done.get(key);
    if (ready) return ready;
    let running = kept.get(key);
    if (!running) {
      running = goldPool().run("goldFigures", input);
      kept.set(key, running);
      running.then(
        (value) => {
          done.set(key, value);
          for (const old of [...done.keys()].slice(0, Math.max(0, done.size - KEEP))) done.delete(old);
          kept.delete(key);
        },
        // A failure (a busy pool's 503) is not kept: the next load tries again.
        () => kept.delete(key),
      );
    }
    if (!Number.isFinite(waitMs)) return running;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"computing">(
      (resolve) => (timer = setTimeout(() => resolve("computing"), waitMs)),
    );
    try {
      return await Promise.race([running, timeout]);
    } catch (error) {
      // A full gold pool (its 503): the page says "computing" and asks again, rather than failing whole.
      if (error instanceof Response && error.status === 503 && Number.isFinite(waitMs)) return "computing";
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The worker pool for a snapshot's freeze: as `runInWorkerPool`, except that the gold figures come from
 * those kept for the campaign's page when its data has not changed (the same input, so the same result),
 * so freezing what the page shows does not compute the learning curves a second time.
 */
export const runInPoolKeepingGold: HeavyRunner = <K extends HeavyTask>(task: K, input: HeavyInput<K>) =>
  task === "goldFigures"
    ? (goldInPool(Infinity)(input as HeavyInput<"goldFigures">) as Promise<HeavyOutput<K>>)
    : runInWorkerPool(task, input);
