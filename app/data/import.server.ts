import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AuditActor } from "../../db/audit/audit";
import type { ImportEntity } from "../../scripts/inputs/import-rows";
import { detectFormat } from "../../db/import/parse";
import { importJobFinished, startImportJob, type ImportJobStatus } from "../../db/import/jobs";

export * from "../../db/import";
export * from "../../db/import/parse";
export { cancelImportJob, importJob, runningImportJob, type ImportJobStatus } from "../../db/import/jobs";

/** A small file's import usually ends within this; the answer then carries its outcome (no polling). */
const WAIT_FOR_SMALL_MS = 1500;

/**
 * Starts importing an uploaded file in the background: the upload goes to a private temp file, which
 * the import's worker streams and deletes. Resolves with the job's status once it has ended or after a
 * moment, whichever is first; the page polls a running job.
 */
export async function startUploadImport(
  admin: Exclude<AuditActor, "cli">,
  entity: ImportEntity,
  file: File,
): Promise<ImportJobStatus> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Assay with `npm start`.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const filePath = path.join(os.tmpdir(), `assay-import-${randomUUID()}`);
  await fs.writeFile(filePath, bytes, { mode: 0o600 });
  const job = startImportJob({
    url,
    actor: { id: admin.id, name: admin.name, email: admin.email },
    entity,
    format: detectFormat(file.name, bytes.subarray(0, 256)),
    filePath,
    fileName: file.name,
    totalBytes: bytes.length,
    ownerId: admin.id,
  });
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<ImportJobStatus>((resolve) => {
    timer = setTimeout(() => resolve({ ...job }), WAIT_FOR_SMALL_MS);
  });
  const status = await Promise.race([importJobFinished(job.id)!, waited]);
  clearTimeout(timer);
  return { ...status };
}
