import { canonicalJson } from "../../scripts/lib/canonical";
import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import { loadExperimentClicksInput } from "../../db/experiments/experiment-clicks";
import type { ExperimentWithArms } from "../../db/experiments/experiments";
import { dataWindow } from "../../db/snapshots/snapshots";
import { getDb } from "./db.server";
import { runInWorkerPool } from "./worker-pool.server";

/**
 * The click-model fits of the experiments' pages, one per (experiment, settings, data window), kept
 * while in progress and after: a fit takes seconds, longer than a page should keep its visitor waiting
 * (and than the server streams a response), so the page answers "pending" and asks again, and the next
 * request finds the same fit rather than starting another. New data changes the window, so a new fit.
 */

/** How long a request waits for its fit before answering "pending". */
export const FIT_WAIT_MS = 2_500;
/** Fits kept; the oldest goes first (each is a few kilobytes of figures). */
const KEPT = 20;

type Fit = { promise: Promise<ExperimentClicksResult>; result?: ExperimentClicksResult };
const fits = new Map<string, Fit>();

/**
 * The experiment's click-model result if it is ready within `waitMs` (started now if no request
 * started it on this data), or null while it is still being fitted. A failed fit (a full worker pool's
 * 503 among them) is thrown to this request and forgotten, so the next one tries again.
 */
export async function clickModelFit(
  experiment: ExperimentWithArms,
  settings: ClickModelSettings,
  waitMs = FIT_WAIT_MS,
): Promise<ExperimentClicksResult | null> {
  const db = getDb();
  const key = canonicalJson({ experiment: experiment.key, settings, window: await dataWindow(db) });
  let fit = fits.get(key);
  if (!fit) {
    const started: Fit = {
      promise: loadExperimentClicksInput(db, experiment, settings).then((input) =>
        runInWorkerPool("experimentClicks", input),
      ),
    };
    started.promise.then(
      (result) => (started.result = result),
      () => fits.delete(key),
    );
    fits.set(key, (fit = started));
    if (fits.size > KEPT) fits.delete(fits.keys().next().value!);
  }
  if (fit.result) return fit.result;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
  try {
    return await Promise.race([fit.promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
