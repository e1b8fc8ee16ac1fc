import type { ExperimentWithArms } from "~/data/experiments.server";
import { compositionResult } from "~/data/results.server";
import { getDb } from "../utils/db.server";
import { runInWorkerPool } from "./worker-pool.server";

/**
 * The composition of adopted candidates by arm or team (db/results/online-composition.ts) with the
 * page's B and seed, so a snapshot frozen from the page holds the same figures.
 */
export async function compositionDashboard(
  experiment: ExperimentWithArms,
  parameters: { B: number; seed: string },
) {
  return compositionResult(getDb(), experiment, parameters, runInWorkerPool);
}
