import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  BadLinkError,
  createInvitation,
  DuplicateEmailError,
  INVITE_LIFETIME_DAYS,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from "~/data/accounts.server";
import { mailInvitation, mailsGoToOutbox } from "~/mail/mail.server";
import { invitationSchema } from "../../scripts/inputs/invitations";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { InvitationsTable, InviteForm } from "~/components/admin/invitations";
import { ActionNotice } from "~/components/form-parts";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent, refuse } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Invitations · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const invitations = await listInvitations(getDb());
  return json(
    { invitations, outbox: mailsGoToOutbox(), inviteDays: INVITE_LIFETIME_DAYS },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), invitationSchema);
  const mailed = (email: string, token: string) => mailInvitation(request, email, token);
  try {
    return await dispatchIntent(submission, {
      invite: async ({ email, roles }) => {
        const invite = await createInvitation(getDb(), admin, { email, roles });
        const link = await mailed(email, invite.token);
        return answer(
          submission,
          "invite" as const,
          { resetForm: true, done: `Invited ${email}.` },
          { link },
        );
      },
      resend: async ({ id }) => {
        const invite = await resendInvitation(getDb(), admin, id);
        const link = await mailed(invite.email, invite.token);
        return answer(
          submission,
          "resend" as const,
          { done: `Sent a new link to ${invite.email}.` },
          { link },
        );
      },
      revoke: async ({ id }) => {
        await revokeInvitation(getDb(), admin, id);
        return answer(submission, "revoke" as const, { done: "The invitation is revoked." }, { link: null });
      },
    });
  } catch (error) {
    if (error instanceof DuplicateEmailError)
      return answer(submission, "invite" as const, { status: 400, fieldErrors: { email: [error.message] } });
    if (error instanceof BadLinkError)
      return refuse(submission, null, "This invitation was already accepted or does not exist.", 409);
    throw error;
  }
}

export default function Invitations() {
  const { invitations, outbox, inviteDays } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const link = data && "link" in data ? (data.link as string | null) : null;
  return (
    <>
      <h1>Invitations</h1>
      <p>
        <a href="/admin/users">Back to users</a>
      </p>
      <ActionNotice answer={data} inPlace={["invite"]} />
      {link ? (
        <p className="notice" role="status">
          No SMTP_URL is set, so the mail is in .data/outbox. The link (works once): <code>{link}</code>
        </p>
      ) : null}
      {outbox ? <p>Mails are written to .data/outbox (no SMTP_URL is set).</p> : null}
      <InviteForm answer={data} />
      <InvitationsTable invitations={invitations} inviteDays={inviteDays} answer={data} showCampaign />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
