import type { Db } from "../platform/client";
import type { ExperimentWithArms } from "../experiments/experiments";
import { loadExperimentClicksInput } from "../experiments/experiment-clicks";
import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { keepLatest, latestOf, progressOf, remember, resultKey, settledValue } from "./cache";
import { inputVersion } from "./version";

/**
 * An experiment's click-model fits with the given settings (split seed, test share, EM passes, ranks).
 * Kept while the fit runs and after, so a page that stops waiting and asks again finds the same fit
 * rather than starting another (app/results/click-fits.server.ts); `done` is the fit when already finished,
 * `computedAt` when it finished, `progress()` the models fitted so far while it runs. `fresh` fits anew.
 * `previous` is the last fit with these settings that finished (on older data, or before a Recompute),
 * for the page to show while this one runs; `sameData` says whether it was of the data fitted now.
 */
export async function clicksResult(
  db: Db,
  experiment: ExperimentWithArms,
  settings: ClickModelSettings,
  run: HeavyRunner,
  { fresh = false } = {},
) {
  const version = await inputVersion(db);
  const parameters = { kind: "clicks", experiment: experiment.key, ...settings };
  const key = resultKey({ parameters, version });
  const family = resultKey({ parameters });
  const previous = latestOf<ExperimentClicksResult>(family);
  const fit: Promise<ExperimentClicksResult> = remember(
    key,
    async (progress) =>
      run("experimentClicks", await loadExperimentClicksInput(db, experiment, settings), progress),
    undefined,
    fresh,
  );
  keepLatest(family, key, fit);
  const settled = settledValue(fit);
  return {
    fit,
    done: settled?.value,
    computedAt: settled?.at ?? null,
    progress: () => progressOf(fit),
    previous: previous && { result: previous.value, at: previous.at, sameData: previous.key === key },
  };
}
