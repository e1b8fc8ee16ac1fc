import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import {
  cancelImportJob,
  importJob,
  runningImportJob,
  startUploadImport,
  type ImportJobStatus,
} from "~/data/import.server";
import { importCancelSchema, importUploadSchema, MAX_UPLOAD_BYTES } from "~/schemas/import";
import { requireAdmin } from "~/security/auth.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ImportColumns, ImportForm, ImportJobPanel } from "~/components/admin/import-parts";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";
import { plural } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Import · Assay" }];

const SHOWN_ERRORS = 500;

/** A job as the page shows it: the first problems only (the count says how many in all). */
function shown(job: ImportJobStatus): ImportJobStatus {
  const result = job.result;
  return result && !result.ok
    ? { ...job, result: { ...result, errors: result.errors.slice(0, SHOWN_ERRORS) } }
    : job;
}

/** `?job=<id>`: how far the admin's import has got (the page polls it while it runs). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = new URL(request.url).searchParams.get("job");
  const job = id ? importJob(id, admin.id) : null;
  return json({ job: job ? shown(job) : null });
}

// The CSRF guard (csrf.server.ts) checks the admin before it reads an upload, and refuses one past the limit.
export const beforeBody = ({ request }: ActionFunctionArgs) => requireAdmin(request);
export const bodyLimit = MAX_UPLOAD_BYTES + 64 * 1024;
export const bodyLimitMessage =
  "The file is larger than 50 MB; import it with the CLI: npm run assay -- import <entity> <file>.";

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  if (form.get("intent") === "cancel") {
    const submission = parseForm(form, importCancelSchema);
    if (submission.status !== "success") return answer(submission, "cancel", { status: 400 }, { job: null });
    if (!cancelImportJob(submission.value.job, admin.id))
      return answer(
        submission,
        "cancel",
        { status: 409, formErrors: ["This import has already ended, or is not yours to cancel."] },
        { job: null },
      );
    return answer(
      submission,
      "cancel",
      { done: "Cancelling: nothing of the file will be written." },
      { job: null },
    );
  }
  const submission = parseForm(form, importUploadSchema);
  if (submission.status !== "success") return answer(submission, "import", { status: 400 }, { job: null });
  const running = runningImportJob();
  if (running)
    return answer(
      submission,
      "import",
      {
        status: 409,
        formErrors: [
          `Another import (${running.fileName}, ${plural(running.rowsRead, "row")} read so far) is running: wait for it to end or cancel it.`,
        ],
      },
      { job: null },
    );
  const { entity, file } = submission.value;
  const job = shown(await startUploadImport(admin, entity, file));
  const status = job.state === "running" ? 202 : job.state === "done" ? 200 : 400;
  return answer(submission, "import", { status }, { job });
}

export default function ImportPage() {
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Import data</h1>
      <p className="muted">
        CSV with a header row, or JSONL (one JSON object per line). A file imports whole or not at all;
        importing the same file again changes nothing. Import in this order: subjects, proposals, candidates,
        systems, lists, gold.
      </p>
      <ImportForm answer={data} />
      <ImportJobPanel started={data?.intent === "import" ? data.job : null} />
      <ImportColumns />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
