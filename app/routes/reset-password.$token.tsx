import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BadLinkError, checkResetLink, resetPassword } from "~/data/accounts.server";
import { resetPasswordSchema } from "../../scripts/inputs/invitations";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { AuthFrame, linkOutcome, NewPasswordForm } from "~/components/auth-frame";
import { parseForm } from "~/forms/forms";
import { passwordLinkAction } from "~/forms/link-password.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Assay" }];

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** Anyone holding the link: the token is the credential; a bad one gets a clear page and a 410. */
export async function loader({ params }: LoaderFunctionArgs) {
  try {
    await checkResetLink(getDb(), params.token ?? "");
    return json({ problem: null }, { headers: noStore });
  } catch (error) {
    if (!(error instanceof BadLinkError)) throw error;
    return json({ problem: error.message }, { status: 410, headers: noStore });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), resetPasswordSchema);
  return passwordLinkAction(submission, async (value) => {
    await resetPassword(getDb(), params.token ?? "", value.password);
    return "Your password is changed and every session of yours has ended. Sign in with the new password.";
  });
}

export default function ResetPassword() {
  const { problem } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const outcome = linkOutcome({
    problem,
    done: data?.done,
    titles: { problem: "This reset link does not work", done: "Password changed" },
    problemHelp: (
      <p>
        <a href="/forgot-password">Ask for a new link</a>
      </p>
    ),
  });
  if (outcome) return outcome;
  return (
    <AuthFrame title="Choose a new password">
      <NewPasswordForm
        schema={resetPasswordSchema}
        lastResult={data?.result}
        labels={{
          password: "New password (at least 12 characters)",
          repeat: "Repeat the new password",
          submit: "Set new password",
        }}
      />
    </AuthFrame>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
