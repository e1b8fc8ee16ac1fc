import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { RoleCheckboxes } from "./role-checkboxes";
import { invitationSchema } from "../../../scripts/inputs/invitations";
import { FormErrors } from "~/components/form-parts";
import { TableScroll } from "~/components/table-scroll";
import { CsrfInput } from "~/security/csrf";
import { parseForm, type FormAnswer } from "~/forms/forms";

export type InvitationRow = {
  id: number;
  email: string;
  roles: string[];
  state: "pending" | "accepted" | "expired" | "revoked";
  createdAt: string;
  expiresAt: string;
};

/**
 * Invite an address with its roles: the person gets a link to choose their name and password. With
 * `campaign` (a campaign's page) the role is fixed to expert and the person joins that campaign's pool.
 */
export function InviteForm({
  answer,
  campaign,
}: {
  answer: FormAnswer | null | undefined;
  campaign?: string;
}) {
  const [form, fields] = useForm({
    lastResult: answer?.intent === "invite" ? answer.result : undefined,
    onValidate: ({ formData }) => parseForm(formData, invitationSchema),
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="card">
      <h2>{campaign ? "Invite experts" : "Invite someone"}</h2>
      {campaign ? (
        <p className="muted">
          The person joins Assay as an expert and, once they accept (by the mailed link or single sign-on),
          the expert pool of {campaign}.
        </p>
      ) : null}
      <CsrfInput />
      <input type="hidden" name="intent" value="invite" />
      <div className="field">
        <label htmlFor={fields.email.id}>Email</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        <p className="field-error" id={fields.email.errorId}>
          {fields.email.errors}
        </p>
      </div>
      {campaign ? (
        <input type="hidden" name="roles" value="expert" />
      ) : (
        <RoleCheckboxes field={fields.roles} />
      )}
      <FormErrors errors={form.errors} />
      <button type="submit">Send invitation</button>
    </Form>
  );
}

function RowAction({ id, intent, label }: { id: number; intent: "resend" | "revoke"; label: string }) {
  return (
    <Form method="post" style={{ display: "inline" }}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="link-button">
        {label}
      </button>
    </Form>
  );
}

/** Every invitation with its state; a pending or expired one can be sent again, a pending one withdrawn. */
export function InvitationsTable({ invitations }: { invitations: InvitationRow[] }) {
  if (invitations.length === 0) return <p>No invitations yet.</p>;
  return (
    <TableScroll label="Invitations">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            <th scope="col">State</th>
            <th scope="col">Sent</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((i) => (
            <tr key={i.id}>
              <td>{i.email}</td>
              <td>{i.roles.join(", ")}</td>
              <td>{i.state}</td>
              <td>{i.createdAt.slice(0, 16).replace("T", " ")}</td>
              <td>{i.expiresAt.slice(0, 16).replace("T", " ")}</td>
              <td>
                {i.state === "pending" || i.state === "expired" ? (
                  <RowAction id={i.id} intent="resend" label="Resend" />
                ) : null}{" "}
                {i.state === "pending" ? <RowAction id={i.id} intent="revoke" label="Revoke" /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
