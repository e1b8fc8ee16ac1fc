import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import type { ExperimentWithArms } from "~/data/experiments.server";
import { clicksResult } from "~/data/results.server";
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
  const { fit, done } = await clicksResult(getDb(), experiment, settings, runInWorkerPool);
  if (done) return done;
  return (await within(fit, waitMs))?.value ?? null;
}
