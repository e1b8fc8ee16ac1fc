import type { HeavyInput, HeavyOutput, HeavyRunner, HeavyTask } from "../../scripts/workers/heavy-tasks";
import { createWorkerPool, runInWorkerPool, type WorkerPool } from "./worker-pool.server";
import { within } from "./within";
import type { ProgressCells } from "../../scripts/lib/progress";

/**
 * A campaign's gold figures take seconds to tens of seconds (1,000 draws of Dawid–Skene per point of the
 * learning curves). They run in a pool of their own (one thread, same workers as `runInWorkerPool`'s,
 * same lowered priority): in the app's pool a long gold job would make every page's figures wait behind
 * it. The result service keeps them (db/results/campaign.ts), so a page that stopped waiting finds the
 * same computation on its next view.
 */

// On globalThis, as the app's pool is, so the Remix bundle and server.ts would share it.
const shared = Symbol.for("assay.goldPool");
type WithPool = typeof globalThis & { [shared]?: WorkerPool };
const goldPool = () => ((globalThis as WithPool)[shared] ??= createWorkerPool({ threads: 1, maxQueue: 4 }));

/** The app's worker pool, with the gold figures in their own pool: the runner of campaign pages and snapshots. */
export const runInAppPools: HeavyRunner = <K extends HeavyTask>(
  task: K,
  input: HeavyInput<K>,
  progress?: ProgressCells,
) =>
  task === "goldFigures"
    ? (goldPool().run("goldFigures", input as HeavyInput<"goldFigures">, progress) as Promise<HeavyOutput<K>>)
    : runInWorkerPool(task, input, progress);

/**
 * The gold figures if they are done within `waitMs`, else "computing" (the page says so and asks again).
 * A full gold pool (its 503) is "computing" too, rather than a failed page; the service has forgotten the
 * failed computation, so the next view starts it again.
 */
export async function goldWithin<T>(figures: Promise<T>, waitMs: number): Promise<T | "computing"> {
  try {
    const done = await within(figures, waitMs);
    return done ? done.value : "computing";
  } catch (error) {
    if (error instanceof Response && error.status === 503) return "computing";
    throw error;
  }
}
