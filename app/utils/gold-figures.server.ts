import { createHash } from "node:crypto";
import type { HeavyInput, HeavyOutput } from "../../scripts/heavy/tasks";
import type { GoldRun } from "../../db/campaign-truth";
import { runInWorkerPool } from "./worker-pool.server";

/**
 * The gold figures of a campaign take seconds to tens of seconds (1,000 draws of Dawid–Skene per point
 * of the learning curves), longer than a page should hold its response. So the page waits a little;
 * when the pool has not finished by then it shows "computing" and revalidates, and the result is kept
 * here, keyed by a hash of its whole input (grades, known grades, options): a new grade or gold item
 * makes a new key, so a kept result is never stale. Kept per process, the last few campaigns' worth.
 */
const KEEP = 8;
const kept = new Map<string, Promise<HeavyOutput<"goldFigures">>>();
const done = new Map<string, HeavyOutput<"goldFigures">>();

const keyOf = (input: HeavyInput<"goldFigures">) => createHash("sha256").update(JSON.stringify(input)).digest("hex");

/** Runs the gold figures in the worker pool, waiting at most `waitMs` (Infinity: till done); "computing" when still running. */
export function goldInPool(waitMs: number): GoldRun {
  return async (input) => {
    const key = keyOf(input);
    const ready = done.get(key);
    if (ready) return ready;
    let running = kept.get(key);
    if (!running) {
      running = runInWorkerPool("goldFigures", input);
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
    const timeout = new Promise<"computing">((resolve) => (timer = setTimeout(() => resolve("computing"), waitMs)));
    try {
      return await Promise.race([running, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
