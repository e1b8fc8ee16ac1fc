import { runHeavyTask, type HeavyTask } from "./heavy-tasks";
import { progressWriter, type ProgressCells } from "../lib/progress";

/**
 * The worker entry of the app's pool (piscina calls the default export with each task's message).
 * Bundled to one file by scripts/workers/run-worker.ts, so the worker starts without compiling TypeScript.
 */
export default function runTask({
  task,
  input,
  progress,
}: {
  task: HeavyTask;
  input: never;
  /** Shared with the app's thread, which reads it while the task runs. */
  progress?: ProgressCells;
}) {
  return runHeavyTask(task, input, progress && progressWriter(progress));
}
