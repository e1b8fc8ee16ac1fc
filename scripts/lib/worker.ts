import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { buildSync } from "esbuild";

const bundles = new Map<string, string>();

/**
 * Runs a TypeScript module in a worker thread and resolves with the first message it posts. The module
 * is bundled once by esbuild: a worker started from the bundle begins at once, where one loading
 * TypeScript through tsx would first spend a good part of a second compiling.
 */
export function runWorker<T>(entry: URL, workerData: unknown): Promise<T> {
  const file = fileURLToPath(entry);
  let source = bundles.get(file);
  if (!source) {
    source = buildSync({ entryPoints: [file], bundle: true, platform: "node", format: "cjs", target: "node20", write: false, logLevel: "silent" }).outputFiles[0].text;
    bundles.set(file, source);
  }
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData });
    worker.once("message", (message: T) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}
