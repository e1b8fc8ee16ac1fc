import { loadInterleavingData } from "../../db/experiments/interleaving-data";
import type { ExperimentWithArms } from "../../db/experiments/experiments";
import { getDb } from "./db.server";
import { runInWorkerPool } from "./worker-pool.server";

/** Resamples and seed of the interleaving page: the A/B dashboard's B and the experiment's own seed. */
export const interleavingParameters = (experiment: ExperimentWithArms) => ({
  B: 1000,
  seed: experiment.seed,
});

/**
 * Everything an interleaving experiment's results page shows: the result by click and by adoption
 * credit, the cumulative day-by-day win rate, and the data-quality counts. The bootstraps run in the
 * worker pool.
 */
export async function interleavingDashboard(experiment: ExperimentWithArms) {
  const data = await loadInterleavingData(getDb(), experiment);
  const { B, seed } = interleavingParameters(experiment);
  const figures = data.sessions.length
    ? await runInWorkerPool("interleavingFigures", {
        sessions: data.sessions,
        control: data.control,
        challenger: data.challenger,
        B,
        seed,
      })
    : null;
  return {
    control: data.control,
    challenger: data.challenger,
    quality: data.quality,
    otherTeams: data.otherTeams,
    figures,
    parameters: { B, seed },
  };
}
