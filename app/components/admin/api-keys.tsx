import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { experimentPageSchema } from "../../../scripts/inputs/experiments";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { TableScroll } from "~/components/table-scroll";
import { CsrfInput } from "~/security/csrf";
import { ConfirmAction } from "~/components/confirm-action";
import { formatDate, formatDateTime } from "~/utils/format";
import { formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

type ApiKey = {
  id: number;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
};

/** The experiment's API keys, each with its revoke button (intent `revokeKey`). */
function ApiKeysTable({ keys, answer }: { keys: ApiKey[]; answer: FormAnswer | null | undefined }) {
  return (
    <TableScroll label="API keys">
      <table aria-label="API keys">
        <thead>
          <tr>
            <th>Key</th>
            <th>Created</th>
            <th>Expires</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{formatDateTime(k.createdAt)}</td>
              <td>{k.expiresAt ? formatDate(k.expiresAt) : "never"}</td>
              <td>{k.revokedAt ? "revoked" : "active"}</td>
              <td>
                {k.revokedAt ? null : (
                  <ConfirmAction
                    intent="revokeKey"
                    label={`Revoke ${k.prefix}…`}
                    busyLabel="Revoking…"
                    title={`Revoke key ${k.prefix}…?`}
                    consequences={[
                      `Applications sending key ${k.prefix}… are refused (401) from now on: their events and assignment requests stop.`,
                      "A revoked key cannot be restored; create a new key for them.",
                    ]}
                    confirmLabel="Yes, revoke the key"
                    fields={{ keyId: k.id }}
                    answer={answer}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Creates a key, optionally expiring after some days (intent `createKey`). */
function CreateKeyForm({ answer }: { answer: FormAnswer | null | undefined }) {
  const result = resultFor(answer, "createKey");
  const [form] = useForm({
    id: "create-key-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, experimentPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errors = form.allErrors.expiresInDays;
  return (
    <Form method="post" {...getFormProps(form)}>
      <CsrfInput />
      <div className="toolbar">
        <div>
          <label htmlFor="expiresInDays">Expires after (days, optional)</label>
          <input
            id="expiresInDays"
            name="expiresInDays"
            type="number"
            min={1}
            max={3650}
            {...errorAttributes("expiresInDays", errors)}
          />
        </div>
        <button type="submit" name="intent" value="createKey">
          Create API key
        </button>
      </div>
      <FieldError id="expiresInDays" errors={errors} />
      <FormErrors errors={result ? formErrorsOf(answer) : null} />
    </Form>
  );
}

/** The API keys of an experiment for applications outside Assay: the new key once, the list, the create form. */
export function ApiKeysSection({
  experimentKey,
  keys,
  answer,
}: {
  experimentKey: string;
  keys: ApiKey[];
  answer: (FormAnswer & { newKey?: string | null }) | null | undefined;
}) {
  return (
    <>
      <h2>API keys</h2>
      <p className="muted">
        For applications that log events (POST /api/events) or ask for assignments (GET /api/experiments/
        {experimentKey}/assignment?unit=…) from outside Assay.
      </p>
      {answer?.newKey ? (
        <p className="notice success" role="status">
          New key (shown once; store it now): <code>{answer.newKey}</code>
        </p>
      ) : null}
      {keys.length ? <ApiKeysTable keys={keys} answer={answer} /> : null}
      <CreateKeyForm answer={answer} />
    </>
  );
}
