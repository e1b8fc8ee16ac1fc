import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import type { ExperimentWithArms } from "~/data/experiments.server";
import { clicksResult, computedAt } from "~/data/results.server";
import type { Progress } from "../../scripts/lib/progress";
import { getDb } from "../utils/db.server";
import { runInWorkerPool } from "./worker-pool.server";
import { within } from "./within";

/**
 * A click-model fit takes seconds, longer than a page should keep its visitor waiting (and than the
 * server streams a response), so the page answers "pending" and asks again; the result service keeps
 * the fit while it runs and after (db/results/clicks.ts), so the next request finds the same fit rather
 * than starting another. New data changes the input version, so a new fit.
 */

/** How long a request waits for its fit before answering "pending". */
export const FIT_WAIT_MS = 2_500;

/** A fit as a page shows it: the result (null while fitting), when it was computed, and how far it got. */
export interface ClickModelFit {
  result: ExperimentClicksResult | null;
  computedAt: string | null;
  /** Models fitted so far, of all, while the fit runs (null before the first is done, or when finished). */
  progress: Progress | null;
}

/**
 * The experiment's click-model result if it is ready within `waitMs` (started now if no request
 * started it on this data, or anew when `fresh`), else its progress. A failed fit (a full worker pool's
 * 503 among them) is thrown to this request and forgotten, so the next one tries again.
 */
export async function clickModelFit(
  experiment: ExperimentWithArms,
  settings: ClickModelSettings,
  { waitMs = FIT_WAIT_MS, fresh = false } = {},
): Promise<ClickModelFit> {
  const found = await clicksResult(getDb(), experiment, settings, runInWorkerPool, { fresh });
  const finished = (at: Date | null, result: ExperimentClicksResult) => ({
    result,
    computedAt: at?.toISOString() ?? null,
    progress: null,
  });
  if (found.done) return finished(found.computedAt, found.done);
  const waited = await within(found.fit, waitMs);
  if (waited) return finished(computedAt(found.fit), waited.value);
  return { result: null, computedAt: null, progress: found.progress() };
}
