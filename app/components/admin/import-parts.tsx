import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { Form, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import {
  entityLabels,
  fieldLimits,
  importEntities,
  optionalColumns,
  requiredColumns,
  type ImportEntity,
} from "../../../scripts/inputs/import-rows";
import { TableScroll } from "~/components/table-scroll";
import { importUploadSchema, MAX_UPLOAD_BYTES } from "~/schemas/import";
import type { ImportJobStatus, ImportResult } from "~/data/import.server";
import { CsrfInput } from "~/security/csrf";
import { formErrorsOf, parseForm, type FormAnswer } from "~/forms/forms";
import { formatCount, plural } from "~/utils/format";

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
      <input type="hidden" name="intent" value="import" />
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
      <p className="field-error" id={form.errorId} role={form.errors ? "alert" : undefined}>
        {form.errors}
      </p>
    </Form>
  );
}

/** An import's job: progress and Cancel while it runs (polled), then what it did or the rows to fix. */
export function ImportJobPanel({ started }: { started: ImportJobStatus | null | undefined }) {
  const poll = useFetcher<{ job: ImportJobStatus | null }>();
  const polled = poll.data?.job;
  const job = started && polled?.id === started.id ? polled : started;
  const running = job?.state === "running";
  const { load } = poll;
  useEffect(() => {
    if (!running || !job) return;
    const timer = setTimeout(() => load(`/admin/import?job=${job.id}`), POLL_MS);
    return () => clearTimeout(timer);
  }, [running, job, load]);
  if (!job) return null;
  if (running) return <ImportProgress job={job} />;
  const result = job.result;
  if (job.state === "done" && result?.ok) return <ImportDone result={result} fileName={job.fileName} />;
  if (job.state === "refused" && result && !result.ok)
    return <ImportRefused result={result} fileName={job.fileName} />;
  return (
    <div className="notice error" role="alert">
      {job.state === "cancelled"
        ? `The import of ${job.fileName} was cancelled after ${plural(job.rowsRead, "row")}: nothing was written.`
        : `The import of ${job.fileName} failed (${job.message ?? "unknown error"}): nothing was written.`}
    </div>
  );
}

const POLL_MS = 500;

function ImportProgress({ job }: { job: ImportJobStatus }) {
  const cancel = useFetcher<FormAnswer>();
  const share = job.totalBytes ? Math.floor((100 * job.bytesRead) / job.totalBytes) : 0;
  const cancelling = cancel.state !== "idle" || Boolean(cancel.data?.done);
  return (
    <section className="notice" aria-labelledby="import-progress">
      <h2 id="import-progress" style={{ marginTop: 0 }}>
        Importing {job.fileName}
      </h2>
      <p role="status" aria-live="polite">
        {plural(job.rowsRead, "row")} read ({share}% of the file), {plural(job.errors, "problem")} so far.
      </p>
      <progress max={100} value={share} aria-label="Share of the file read" />
      <cancel.Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="job" value={job.id} />
        <button type="submit" className="secondary" disabled={cancelling}>
          {cancelling ? "Cancelling…" : "Cancel import"}
        </button>
      </cancel.Form>
      {cancel.data && formErrorsOf(cancel.data).length ? (
        <p className="field-error">{formErrorsOf(cancel.data).join(" ")}</p>
      ) : null}
    </section>
  );
}

type Done = Extract<ImportResult, { ok: true }>;
type Refused = Extract<ImportResult, { ok: false }>;

function ImportDone({ result, fileName }: { result: Done; fileName: string }) {
  const c = result.counts;
  return (
    <div className="notice success" role="status">
      Imported {fileName}: {plural(result.rows, "row")} of {entityLabels[result.entity]}:{" "}
      {formatCount(c.added)} added, {formatCount(c.updated)} updated, {formatCount(c.unchanged)} unchanged
      {c.removed ? `, ${formatCount(c.removed)} removed` : ""}
      {c.listsAdded ? ` (${plural(c.listsAdded, "new list")})` : ""}.
    </div>
  );
}

function ImportRefused({ result, fileName }: { result: Refused; fileName: string }) {
  return (
    <section className="notice error" role="alert" aria-labelledby="import-errors">
      <h2 id="import-errors" style={{ marginTop: 0 }}>
        Nothing was imported: {plural(result.totalErrors, "problem")} in {fileName}
      </h2>
      <p>
        Fix these rows and import the file again.
        {result.totalErrors > result.errors.length ? ` The first ${result.errors.length} are listed.` : ""}
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
  );
}

/** What an optional column holds, where its name does not say it. The columns come from the schemas. */
const columnHints: Partial<Record<ImportEntity, Record<string, string>>> = {
  proposals: { keywords: "separated by ;", subject: "a subject key", date: "YYYY-MM-DD, submission" },
  candidates: { keywords: "separated by ;", profile_date: "YYYY-MM-DD, when the profile was written" },
  systems: { build_seconds: "seconds to build the system", memory_mb: "memory the system needs, in MB" },
  lists: {
    variant: "default “default”",
    protocol: "given-2:SEED and the like, from assay protocol split; set on the system",
    latency_ms: "the list's prediction time in ms, on any of its rows",
  },
};

/** What a file of the entity does, or what its required columns hold, beside the column names. */
const entityNotes: Partial<Record<ImportEntity, string>> = {
  lists: "A file replaces each list it names.",
  conveners: "convener: a convener's email; they convene the proposal.",
  conflicts: "The candidate must not review the proposal: flagged in lists, never assigned as its expert.",
  truth:
    "campaign: its id; a pair the launched campaign pooled; grade 1–4. Experts never see which pairs are gold.",
  attributes:
    "A group attribute of a candidate, e.g. gender, country or career stage, for the fairness figures; values as given, “unknown” a value of its own. Never shown to experts.",
  "convener-attributes":
    "convener: a convener's email, or a unit an experiment's events name; an attribute such as institution or seniority, for slicing A/B results; values as given, “unknown” a value of its own. Shown to admins and analysts only.",
};

/** The Optional cell of an entity: each optional column the importer accepts, with its hint, then the note. */
function optionalText(entity: ImportEntity): string {
  const hints = columnHints[entity] ?? {};
  const columns = optionalColumns(entity).map((c) => (hints[c] ? `${c} (${hints[c]})` : c));
  return [columns.length ? columns.join(", ") : "—", entityNotes[entity]].filter(Boolean).join(". ");
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
            {importEntities.map((entity) => (
              <tr key={entity}>
                <td>{entity}</td>
                <td>{requiredColumns[entity].join(", ")}</td>
                <td>{optionalText(entity)}</td>
              </tr>
            ))}
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
