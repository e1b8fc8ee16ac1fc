import { runHeavyTask, type HeavyTask } from "./heavy-tasks";

/**
 * The worker entry of the app's pool (piscina calls the default export with each task's message).
 * Bundled to one file by scripts/workers/run-worker.ts, so the worker starts without compiling TypeScript.
 */
export default function runTask({ task, input }: { task: HeavyTask; input: never }) {
  return runHeavyTask(task, input);
}
