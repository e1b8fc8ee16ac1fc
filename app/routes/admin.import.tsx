import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { importFile, type ImportResult } from "~/data/import.server";
import { detectFormat } from "~/data/import.server";
import { entityLabels, fieldLimits, importEntities, requiredColumns } from "../../scripts/inputs/import-rows";
import { importUploadSchema, MAX_UPLOAD_BYTES } from "~/schemas/import";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/utils/csrf";
import { parseForm } from "~/utils/forms";
import { answer } from "~/utils/forms.server";
import { TableScroll } from "~/components/table-scroll";

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
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, importUploadSchema),
    shouldValidate: "onSubmit",
  });
  const result = data?.report;
  const busy = navigation.state === "submitting";
  return (
    <>
      <h1>Import data</h1>
      <p className="muted">
        CSV with a header row, or JSONL (one JSON object per line). A file imports whole or not at all;
        importing the same file again changes nothing. Import in this order: subjects, proposals, candidates,
        systems, lists, gold.
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="panel">
        <CsrfInput />
        <div className="form-grid">
          <div>
            <label htmlFor={fields.entity.id}>What the file holds</label>
            <select
              {...getSelectProps(fields.entity)}
              defaultValue={fields.entity.initialValue ?? "proposals"}
            >
              {importEntities.map((e) => (
                <option key={e} value={e}>
                  {entityLabels[e]}
                </option>
              ))}
            </select>
            <p className="field-error" id={fields.entity.errorId}>
              {fields.entity.errors}
            </p>
          </div>
          <div>
            <label htmlFor={fields.file.id}>File (.csv or .jsonl)</label>
            <input
              type="file"
              id={fields.file.id}
              name={fields.file.name}
              accept=".csv,.jsonl,.ndjson,.json,text/csv"
              aria-describedby={fields.file.errorId}
            />
            <p className="field-error" id={fields.file.errorId}>
              {fields.file.errors}
            </p>
          </div>
          <div>
            <button type="submit" disabled={busy}>
              {busy ? "Importing…" : "Import"}
            </button>
          </div>
        </div>
      </Form>

      {result && result.ok ? (
        <div className="notice success" role="status">
          Imported {result.fileName}: {result.rows.toLocaleString("en")} rows of {entityLabels[result.entity]}
          : {result.counts.added.toLocaleString("en")} added, {result.counts.updated.toLocaleString("en")}{" "}
          updated, {result.counts.unchanged.toLocaleString("en")} unchanged
          {result.counts.removed ? `, ${result.counts.removed.toLocaleString("en")} removed` : ""}
          {result.counts.listsAdded ? ` (${result.counts.listsAdded} new lists)` : ""}.
        </div>
      ) : null}

      {result && !result.ok ? (
        <section className="notice error" role="alert" aria-labelledby="import-errors">
          <h2 id="import-errors" style={{ marginTop: 0 }}>
            Nothing was imported: {result.totalErrors.toLocaleString("en")} problem
            {result.totalErrors === 1 ? "" : "s"} in {result.fileName}
          </h2>
          <p>
            Fix these rows and import the file again.
            {result.totalErrors > result.errors.length
              ? ` The first ${result.errors.length} are listed.`
              : ""}
          </p>
          <TableScroll label="Rows to fix">
            <table>
              <thead>
                <tr>
                  <th className="num">Line</th>
                  <th>Problem</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.map((e, i) => (
                  <tr key={i}>
                    <td className="num">{e.line}</td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}

      <h2>Columns</h2>
      <TableScroll label="Columns">
        <table>
          <thead>
            <tr>
              <th>Entity</th>
              <th>Required</th>
              <th>Optional</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>subjects</td>
              <td>{requiredColumns.subjects.join(", ")}</td>
              <td>—</td>
            </tr>
            <tr>
              <td>proposals</td>
              <td>{requiredColumns.proposals.join(", ")}</td>
              <td>
                abstract, keywords (separated by ;), subject (a subject key), date (YYYY-MM-DD, submission)
              </td>
            </tr>
            <tr>
              <td>candidates</td>
              <td>{requiredColumns.candidates.join(", ")}</td>
              <td>
                affiliation, email, keywords (separated by ;), summary, profile_date (YYYY-MM-DD, when the
                profile was written)
              </td>
            </tr>
            <tr>
              <td>systems</td>
              <td>{requiredColumns.systems.join(", ")}</td>
              <td>name, version</td>
            </tr>
            <tr>
              <td>lists</td>
              <td>{requiredColumns.lists.join(", ")}</td>
              <td>score, variant (default “default”). A file replaces each list it names.</td>
            </tr>
            <tr>
              <td>gold</td>
              <td>{requiredColumns.gold.join(", ")}</td>
              <td>—</td>
            </tr>
            <tr>
              <td>conflicts</td>
              <td>{requiredColumns.conflicts.join(", ")}</td>
              <td>
                reason. The candidate must not review the proposal: flagged in lists, never assigned as its
                expert.
              </td>
            </tr>
            <tr>
              <td>truth</td>
              <td>{requiredColumns.truth.join(", ")}</td>
              <td>
                — (campaign: its id; a pair the launched campaign pooled; grade 1–4. Experts never see which
                pairs are gold.)
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        Files are UTF-8 text. Ids, keys, names, emails and affiliations hold at most {fieldLimits.short}{" "}
        characters, titles and keywords {fieldLimits.medium.toLocaleString("en")}, abstracts and summaries{" "}
        {fieldLimits.long.toLocaleString("en")}. Maximum upload {MAX_UPLOAD_BYTES / 1024 / 1024} MB; larger
        files import with the CLI.
      </p>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
