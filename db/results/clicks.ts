import type { Db } from "../platform/client";
import type { ExperimentWithArms } from "../experiments/experiments";
import { loadExperimentClicksInput } from "../experiments/experiment-clicks";
import type { ClickModelSettings, ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { remember, resultKey, settledValue } from "./cache";
import { inputVersion } from "./version";

/**
 * An experiment's click-model fits with the given settings (split seed, test share, EM passes, ranks).
 * Kept while the fit runs and after, so a page that stops waiting and asks again finds the same fit
 * rather than starting another (app/results/click-fits.server.ts); `done` is the fit when already finished.
 */
export async function clicksResult(
  db: Db,
  experiment: ExperimentWithArms,
  settings: ClickModelSettings,
  run: HeavyRunner,
): Promise<{ fit: Promise<ExperimentClicksResult>; done?: ExperimentClicksResult }> {
  const version = await inputVersion(db);
  const parameters = { kind: "clicks", experiment: experiment.key, ...settings };
  const fit = remember(resultKey({ parameters, version }), async () =>
    run("experimentClicks", await loadExperimentClicksInput(db, experiment, settings)),
  );
  return { fit, done: settledValue(fit)?.value };
}
