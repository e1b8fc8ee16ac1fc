import { createReadStream } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../platform/client";
import type { AuditActor } from "../audit/audit";
import type { ImportEntity } from "../../scripts/inputs/import-rows";
import type { FileFormat } from "./parse";
import { importStream } from "./index";

/** What the job hands its worker: where the database and the file are, and what the file holds. */
export interface ImportWorkerData {
  url: string;
  actor: AuditActor;
  entity: ImportEntity;
  format: FileFormat;
  filePath: string;
  fileName: string;
}

/** What the worker tells the job: progress while it reads, then exactly one outcome. */
export type ImportWorkerMessage =
  | { type: "progress"; rowsRead: number; errors: number; bytesRead: number }
  | { type: "result"; result: Awaited<ReturnType<typeof importStream>> }
  | { type: "cancelled" }
  | { type: "failed"; message: string };

/**
 * One import in a worker thread (started by jobs.ts): it reads the file from disk as a stream, and
 * validates and writes with a connection of its own, so the server's event loop and its pool keep
 * answering requests. The job posts "cancel" to end it: the transaction rolls back.
 */
async function main() {
  const data = workerData as ImportWorkerData;
  const post = (message: ImportWorkerMessage) => parentPort!.postMessage(message);
  const controller = new AbortController();
  parentPort!.on("message", (message) => {
    if (message === "cancel") controller.abort();
  });
  // One connection: the import is one transaction. No statement timeout: a large file may take minutes.
  const { db, sql } = createDb(data.url, { max: 1 });
  try {
    const result = await importStream(
      db,
      data.actor,
      data.entity,
      createReadStream(data.filePath, { highWaterMark: 1 << 20 }),
      data.format,
      {
        fileName: data.fileName,
        signal: controller.signal,
        onProgress: (p) => post({ type: "progress", ...p }),
      },
    );
    post({ type: "result", result });
  } catch (error) {
    if (controller.signal.aborted) post({ type: "cancelled" });
    else post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  } finally {
    await sql.end({ timeout: 5 });
    parentPort!.close();
  }
}

void main();
