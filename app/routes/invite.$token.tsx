import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { acceptInvitation, BadLinkError, checkInvitation } from "~/data/accounts.server";
import { acceptInvitationSchema } from "../../scripts/inputs/invitations";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { AuthFrame, linkOutcome, NewPasswordForm } from "~/components/auth-frame";
import { parseForm } from "~/forms/forms";
import { passwordLinkAction } from "~/forms/link-password.server";

export const meta: MetaFunction = () => [{ title: "Accept your invitation · Assay" }];

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** Anyone holding the link: the token is the only credential, so a bad one gets a clear page and a 4xx. */
export async function loader({ params }: LoaderFunctionArgs) {
  try {
    const { email } = await checkInvitation(getDb(), params.token ?? "");
    return json({ email, problem: null }, { headers: noStore });
  } catch (error) {
    if (!(error instanceof BadLinkError)) throw error;
    return json({ email: null, problem: error.message }, { status: 410, headers: noStore });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), acceptInvitationSchema);
  return passwordLinkAction(submission, async (value) => {
    const user = await acceptInvitation(getDb(), params.token ?? "", value);
    return `Welcome, ${user.name}. Your account is ready: sign in with ${user.email} and your new password.`;
  });
}

export default function AcceptInvitation() {
  const { email, problem } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const outcome = linkOutcome({
    problem,
    done: data?.done,
    titles: { problem: "This invitation link does not work", done: "Account ready" },
  });
  if (outcome) return outcome;
  return (
    <AuthFrame title="Accept your invitation">
      <p>You were invited to Assay as {email}. Choose the name others will see and your password.</p>
      <NewPasswordForm
        schema={acceptInvitationSchema}
        lastResult={data?.result}
        askName
        labels={{
          password: "Password (at least 12 characters)",
          repeat: "Repeat the password",
          submit: "Create my account",
        }}
      />
    </AuthFrame>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
