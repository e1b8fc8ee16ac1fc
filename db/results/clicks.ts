import type { Db } from "../platform/client";
import type { ExperimentWithArms } from "../experiments/experiments";
import { loadExperimentClicksInput } from "../experiments/experiment-clicks";
import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { progressOf, remember, resultKey, settledValue } from "./cache";
import { inputVersion } from "./version";

/**
 * An experiment's click-model fits with the given settings (split seed, test share, EM passes, ranks).
 * Kept while the fit runs and after, so a page that stops waiting and asks again finds the same fit
 * rather than starting another (app/results/click-fits.server.ts); `done` is the fit when already finished,
 * `computedAt` when it finished, `progress()` the models fitted so far while it runs. `fresh` fits anew.
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
  const fit: Promise<ExperimentClicksResult> = remember(
    resultKey({ parameters, version }),
    async (progress) =>
      run("experimentClicks", await loadExperimentClicksInput(db, experiment, settings), progress),
    undefined,
    fresh,
  );
  const settled = settledValue(fit);
  return { fit, done: settled?.value, computedAt: settled?.at ?? null, progress: () => progressOf(fit) };
}
