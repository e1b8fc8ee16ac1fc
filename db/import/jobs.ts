import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { bundledWorkerFile } from "../../scripts/workers/run-worker";
import type { ImportEntity } from "../../scripts/inputs/import-rows";
import type { ImportResult } from "./index";
import type { ImportWorkerData, ImportWorkerMessage } from "./import-worker";

/** The heap a job's worker may use: a runaway file ends its import, not the server. */
export const IMPORT_WORKER_HEAP_MB = 512;
/** How long a finished job's outcome stays readable by the page that polls it. */
const KEEP_FINISHED_MS = 60 * 60 * 1000;

export type ImportJobState = "running" | "done" | "refused" | "cancelled" | "failed";

/** What the page shows of a job: no actor, no file path, nothing of another user. */
export interface ImportJobStatus {
  id: string;
  entity: ImportEntity;
  fileName: string;
  state: ImportJobState;
  rowsRead: number;
  errors: number;
  bytesRead: number;
  totalBytes: number;
  result: ImportResult | null;
  message: string | null;
}

interface Job {
  status: ImportJobStatus;
  ownerId: number | "cli";
  worker: Worker;
  finished: Promise<ImportJobStatus>;
}

// On globalThis, so the Remix bundle and server.ts (and a test) share one registry.
const shared = Symbol.for("assay.importJobs");
type WithJobs = typeof globalThis & { [shared]?: Map<string, Job> };
const jobs = () => ((globalThis as WithJobs)[shared] ??= new Map<string, Job>());

/** The running import, if any: one at a time, so two files never lock the same rows against each other. */
export function runningImportJob(): ImportJobStatus | null {
  for (const job of jobs().values()) if (job.status.state === "running") return job.status;
  return null;
}

/**
 * Starts an import of the file at `filePath` (which the job deletes when it ends) in a worker thread
 * with its own database connection, and returns at once; `importJob` tells how far it got.
 */
export function startImportJob(
  data: ImportWorkerData & { totalBytes: number; ownerId: number | "cli" },
): ImportJobStatus {
  const { totalBytes, ownerId, ...workerData } = data;
  const status: ImportJobStatus = {
    id: randomUUID(),
    entity: data.entity,
    fileName: data.fileName,
    state: "running",
    rowsRead: 0,
    errors: 0,
    bytesRead: 0,
    totalBytes,
    result: null,
    message: null,
  };
  const worker = new Worker(bundledWorkerFile(workerEntry()), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: IMPORT_WORKER_HEAP_MB },
  });
  const finished = new Promise<ImportJobStatus>((resolve) => {
    const end = (state: ImportJobState, message: string | null = null) => {
      if (status.state !== "running") return;
      Object.assign(status, { state, message });
      setTimeout(() => jobs().delete(status.id), KEEP_FINISHED_MS).unref();
      // Finished means the upload is gone too: whoever waits on the job finds no file left behind.
      fs.rm(data.filePath, { force: true }, () => resolve(status));
    };
    worker.on("message", (message: ImportWorkerMessage) => {
      if (message.type === "progress") {
        Object.assign(status, { rowsRead: message.rowsRead, errors: message.errors });
        status.bytesRead = message.bytesRead;
      } else if (message.type === "result") {
        status.result = message.result;
        status.rowsRead = message.result.rows;
        status.errors = message.result.ok ? 0 : message.result.totalErrors;
        end(message.result.ok ? "done" : "refused");
      } else if (message.type === "cancelled") end("cancelled");
      else end("failed", message.message);
    });
    worker.on("error", (error) =>
      end(
        "failed",
        /out of memory/i.test(error.message)
          ? `the import needed more than ${IMPORT_WORKER_HEAP_MB} MB`
          : error.message,
      ),
    );
    worker.on("exit", () => end("failed", "the import stopped before it finished"));
  });
  jobs().set(status.id, { status, ownerId, worker, finished });
  return status;
}

/** The job's status for its owner (null for anyone else: a job id is no key to another admin's import). */
export function importJob(id: string, ownerId: number | "cli"): ImportJobStatus | null {
  const job = jobs().get(id);
  return job && job.ownerId === ownerId ? { ...job.status } : null;
}

/** Resolves when the job has ended, with its last status. */
export function importJobFinished(id: string): Promise<ImportJobStatus> | null {
  return jobs().get(id)?.finished ?? null;
}

/** Asks a running job to stop; its transaction rolls back, so nothing of the file is written. */
export function cancelImportJob(id: string, ownerId: number | "cli"): boolean {
  const job = jobs().get(id);
  if (!job || job.ownerId !== ownerId || job.status.state !== "running") return false;
  job.worker.postMessage("cancel");
  return true;
}

/** The worker's TypeScript entry, found from the project folder (this module also runs from build/). */
function workerEntry(): URL {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("Could not find the project folder (package.json) for the import.");
    dir = parent;
  }
  return pathToFileURL(path.join(dir, "db/import/import-worker.ts"));
}
