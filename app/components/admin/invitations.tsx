import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { RoleCheckboxes } from "./role-checkboxes";
import { invitationSchema } from "../../../scripts/inputs/invitations";
import { FormErrors } from "~/components/form-parts";
import { TableScroll } from "~/components/table-scroll";
import { CsrfInput } from "~/security/csrf";
import { ConfirmAction } from "~/components/confirm-action";
import { formatDateTime, plural } from "~/utils/format";
import { parseForm, type FormAnswer } from "~/forms/forms";

export type InvitationRow = {
  id: number;
  email: string;
  roles: string[];
  state: "pending" | "accepted" | "expired" | "revoked";
  createdAt: string;
  expiresAt: string;
  /** The campaigns the invitation brings the person into; empty for an organisation-wide one. */
  campaigns: { id: number; name: string }[];
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

/** Resend and Revoke of one row, each behind the dialog that says which link stops working. */
function RowActions({
  invitation: i,
  inviteDays,
  answer,
}: {
  invitation: InvitationRow;
  inviteDays: number;
  answer: Answer;
}) {
  const works = `the new one works for ${plural(inviteDays, "day")}`;
  const resendable = i.state === "pending" || i.state === "expired";
  return (
    <div className="row-actions">
      {resendable ? (
        <ConfirmAction
          intent="resend"
          label="Resend"
          busyLabel="Sending…"
          ariaLabel={`Resend the invitation to ${i.email}`}
          title={`Send ${i.email} a new link?`}
          consequences={[
            i.state === "pending"
              ? `The link sent before stops working; ${works}.`
              : `The expired link is replaced; ${works}.`,
          ]}
          confirmLabel="Yes, send a new link"
          fields={{ id: i.id }}
          answer={answer}
          danger={false}
          className="link-button"
        />
      ) : null}
      {i.state === "pending" ? (
        <ConfirmAction
          intent="revoke"
          label="Revoke"
          busyLabel="Revoking…"
          ariaLabel={`Revoke the invitation to ${i.email}`}
          title={`Revoke the invitation to ${i.email}?`}
          consequences={[
            "The link stops working at once and no account is made. You can invite the address again.",
          ]}
          confirmLabel="Yes, revoke the invitation"
          fields={{ id: i.id }}
          answer={answer}
          className="link-button"
        />
      ) : null}
    </div>
  );
}

type Answer = Pick<FormAnswer, "intent" | "result"> | null | undefined;

/** Every invitation with its state; a pending or expired one can be sent again, a pending one withdrawn. */
export function InvitationsTable({
  invitations,
  inviteDays,
  answer,
  showCampaign = false,
}: {
  invitations: InvitationRow[];
  /** How long a new link works. */
  inviteDays: number;
  answer?: Answer;
  /** The admin's list of every invitation says which campaign each is for (a campaign's page need not). */
  showCampaign?: boolean;
}) {
  if (invitations.length === 0) return <p>No invitations yet.</p>;
  return (
    <TableScroll label="Invitations">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            {showCampaign ? <th scope="col">For</th> : null}
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
              {showCampaign ? (
                <td>
                  <InvitationScope campaigns={i.campaigns} />
                </td>
              ) : null}
              <td>{i.state}</td>
              <td>
                <time dateTime={i.createdAt}>{formatDateTime(i.createdAt)}</time>
              </td>
              <td>
                <time dateTime={i.expiresAt}>{formatDateTime(i.expiresAt)}</time>
              </td>
              <td>
                <RowActions invitation={i} inviteDays={inviteDays} answer={answer} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Which campaign's pool an invitation leads into, linked; or that it is for the organisation as a whole. */
function InvitationScope({ campaigns }: { campaigns: InvitationRow["campaigns"] }) {
  if (campaigns.length === 0) return <span className="muted">Organisation-wide</span>;
  return (
    <>
      {campaigns.map((c, n) => (
        <span key={c.id}>
          {n > 0 ? ", " : null}
          Campaign <a href={`/admin/campaigns/${c.id}`}>{c.name}</a>
        </span>
      ))}
    </>
  );
}
