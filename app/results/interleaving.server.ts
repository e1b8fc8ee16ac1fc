import type { ExperimentWithArms } from "~/data/experiments.server";
import { interleavingResult } from "~/data/results.server";
import { getDb } from "../utils/db.server";
import { runInWorkerPool } from "./worker-pool.server";

/**
 * Everything an interleaving experiment's results page shows (db/results/interleaving.ts), the
 * bootstraps in the worker pool.
 */
export const interleavingDashboard = (experiment: ExperimentWithArms) =>
  interleavingResult(getDb(), experiment, runInWorkerPool);
