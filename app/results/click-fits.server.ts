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
 * than starting another. New data changes the input version, so a new fit; the last one finished is shown
 * meanwhile.
 */

/** How long a request waits for its fit before answering "pending". */
export const FIT_WAIT_MS = 2_500;

/**
 * A fit as a page shows it: the result, when it was computed, and how far the fit under way got. While a
 * fit runs, the result is the last one finished with these settings (null when none has), so a live
 * experiment whose every event starts a refit keeps its figures on screen; `refitting` says why.
 */
export interface ClickModelFit {
  result: ExperimentClicksResult | null;
  computedAt: string | null;
  /** Models fitted so far, of all, while a fit runs (null before the first is done, or when finished). */
  progress: Progress | null;
  /**
   * A newer fit is running while `result` shows the previous one: "new-data" when events (or other
   * inputs) changed since it, "recompute" when the analyst asked for it anew on the same data; else null.
   */
  refitting: "new-data" | "recompute" | null;
}

/**
 * The experiment's click-model result if it is ready within `waitMs` (started now if no request
 * started it on this data, or anew when `fresh`), else its progress, with the last fit finished meanwhile. A failed fit (a full worker pool's
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
    refitting: null,
  });
  if (found.done) return finished(found.computedAt, found.done);
  const waited = await within(found.fit, waitMs);
  if (waited) return finished(computedAt(found.fit), waited.value);
  const previous = found.previous;
  return {
    result: previous?.result ?? null,
    computedAt: previous?.at.toISOString() ?? null,
    progress: found.progress(),
    refitting: previous ? (previous.sameData ? "recompute" : "new-data") : null,
  };
}
