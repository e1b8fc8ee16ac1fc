import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import {
  entityLabels,
  fieldLimits,
  importEntities,
  requiredColumns,
} from "../../../scripts/inputs/import-rows";
import { TableScroll } from "~/components/table-scroll";
import { importUploadSchema, MAX_UPLOAD_BYTES } from "~/schemas/import";
import type { ImportResult } from "~/data/import.server";
import { CsrfInput } from "~/security/csrf";
import { parseForm, type FormAnswer } from "~/forms/forms";

/** The upload form: what the file holds and the file, checked in the browser and on the server. */
export function ImportForm({ answer }: { answer: FormAnswer | null | undefined }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseForm(formData, importUploadSchema),
    shouldValidate: "onSubmit",
  });
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="panel">
      <CsrfInput />
      <div className="form-grid">
        <div>
          <label htmlFor={fields.entity.id}>What the file holds</label>
          <select {...getSelectProps(fields.entity)} defaultValue={fields.entity.initialValue ?? "proposals"}>
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
  );
}

/** What an import did: the counts of a file imported whole, or the rows to fix of a file refused. */
export function ImportOutcome({
  result,
}: {
  result: (ImportResult & { fileName: string; totalErrors: number }) | null | undefined;
}) {
  return (
    <>
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
    </>
  );
}

/** Which columns each kind of file needs and may have, and the limits on its text. */
export function ImportColumns() {
  return (
    <>
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
              <td>
                score, variant (default “default”), protocol (given-2:SEED and the like, from assay protocol
                split; set on the system). A file replaces each list it names.
              </td>
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
