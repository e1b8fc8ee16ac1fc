import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type TransferListItem } from "node:worker_threads";
import { createRequire } from "node:module";

const bundles = new Map<string, string>();
const cacheDir = path.join(os.tmpdir(), "assay-worker-bundles");

/**
 * Runs a TypeScript module in a worker thread and resolves with the first message it posts (ports
 * for talking to other workers go in `transferList`). From the sources, the module is bundled by
 * esbuild: a worker started from the bundle begins at once, where one loading TypeScript through tsx
 * would first spend a good part of a second compiling. The built CLI (dist/, scripts/build-cli.mjs)
 * has its workers prebuilt beside it, as `<name>.cjs` where `<name>.ts` would be.
 */
export function runWorker<T>(entry: URL, workerData: unknown, transferList?: TransferListItem[]): Promise<T> {
  const file = fileURLToPath(entry);
  let source = bundles.get(file);
  if (!source && fs.existsSync(file)) bundles.set(file, (source = bundle(file)));
  return new Promise<T>((resolve, reject) => {
    const worker = source
      ? new Worker(source, { eval: true, workerData, transferList })
      : new Worker(file.replace(/\.ts$/, ".cjs"), { workerData, transferList });
    worker.once("message", (message: T) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

/**
 * The bundle of a TypeScript worker module written to a file of its own (named by the hash of its code,
 * so a changed module gets a new file), for pools such as piscina that load their worker from a path.
 */
export function bundledWorkerFile(entry: URL): string {
  const file = fileURLToPath(entry);
  let source = bundles.get(file);
  if (!source) bundles.set(file, (source = bundle(file)));
  const target = path.join(cacheDir, `${createHash("sha256").update(source).digest("hex").slice(0, 16)}.cjs`);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const temporary = `${target}.${process.pid}`;
    fs.writeFileSync(temporary, source);
    fs.renameSync(temporary, target);
  }
  return target;
}

/**
 * The bundle of `file`, kept on disk with the list of files it was built from and a hash of their
 * contents: a later process whose inputs are unchanged skips the build (about 50 ms of each `eval`).
 */
function bundle(file: string): string {
  const cacheFile = path.join(
    cacheDir,
    `${createHash("sha256").update(file).digest("hex").slice(0, 16)}.json`,
  );
  try {
    const cached = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as {
      inputs: string[];
      hash: string;
      code: string;
    };
    if (cached.hash === hashOf(cached.inputs)) return cached.code;
  } catch {
    // No cache yet, or an input is gone: build.
  }
  // Loaded only here: the built CLI, whose workers come prebuilt, never pays for loading esbuild.
  const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const result = buildSync({
    entryPoints: [file],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
    metafile: true,
  });
  const code = result.outputFiles[0].text;
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(input));
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}`;
    fs.writeFileSync(temporary, JSON.stringify({ inputs, hash: hashOf(inputs), code }));
    fs.renameSync(temporary, cacheFile); // whole or not at all, for processes reading it meanwhile
  } catch {
    // An unwritable temp folder only costs the next run the build.
  }
  return code;
}

function hashOf(inputs: string[]): string {
  const hash = createHash("sha256");
  for (const input of inputs) hash.update(input).update("\0").update(fs.readFileSync(input)).update("\0");
  return hash.digest("hex");
}
