import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { importFile, type ImportResult } from "~/data/import.server";
import { detectFormat } from "~/data/import.server";
import { importUploadSchema, MAX_UPLOAD_BYTES } from "~/schemas/import";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ImportColumns, ImportForm, ImportOutcome } from "~/components/admin/import-parts";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Import · Assay" }];

const SHOWN_ERRORS = 500;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({});
}

// The CSRF guard (csrf.server.ts) checks the admin before it reads an upload, and refuses one past the limit.
export const beforeBody = ({ request }: ActionFunctionArgs) => requireAdmin(request);
export const bodyLimit = MAX_UPLOAD_BYTES + 64 * 1024;
export const bodyLimitMessage =
  "The file is larger than 50 MB; import it with the CLI: npm run assay -- import <entity> <file>.";

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), importUploadSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400 }, { report: null });
  const { entity, file } = submission.value;
  // Bytes, not file.text(): that would replace what is not UTF-8 instead of letting the import refuse it.
  const bytes = new Uint8Array(await file.arrayBuffer());
  const result = await importFile(getDb(), admin, entity, bytes, detectFormat(file.name, bytes), {
    fileName: file.name,
  });
  const shown: ImportResult & { fileName: string; totalErrors: number } = result.ok
    ? { ...result, fileName: file.name, totalErrors: 0 }
    : {
        ...result,
        errors: result.errors.slice(0, SHOWN_ERRORS),
        fileName: file.name,
        totalErrors: result.errors.length,
      };
  return answer(
    submission,
    null,
    { status: result.ok ? 200 : 400, resetForm: result.ok },
    { report: shown as typeof shown | null },
  );
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
      <ImportOutcome result={data?.report} />
      <ImportColumns />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
