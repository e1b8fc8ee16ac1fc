import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordSsoRefusal, signInWithOidc, SsoRefusedError } from "~/data/accounts.server";
import { clearFlow, finishOidc, OidcCallbackError, oidcSettings } from "~/security/oidc.server";
import { homeOf, PASSWORD_PAGE, safeRedirect } from "~/security/auth.server";
import { signIn } from "~/security/sessions.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { AuthFrame } from "~/components/auth-frame";

export const meta: MetaFunction = () => [{ title: "Single sign-on · Assay" }];

// The URL carries the provider's one-time code: no cache keeps it, no Referer repeats it.
const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/**
 * The provider sends the browser back here with a code. A refused sign-in (wrong state or nonce, a
 * token for another audience, an unverified or unknown email) gets this page with the reason, an audit
 * entry, and no account created or changed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const settings = oidcSettings();
  if (!settings) throw json({ message: "Single sign-on is not configured on this server." }, { status: 404 });
  const address = context.ip ?? "";
  const headers = new Headers(noStore);
  headers.append("Set-Cookie", await clearFlow());
  try {
    const { identity, redirectTo, idToken } = await finishOidc(settings, request);
    const { user } = await signInWithOidc(getDb(), identity, address);
    headers.append("Set-Cookie", await signIn(request, user.id, address, new Date(), idToken));
    const next = user.mustChangePassword ? PASSWORD_PAGE : safeRedirect(redirectTo, homeOf(user.roles));
    return redirect(next, { headers });
  } catch (error) {
    if (error instanceof OidcCallbackError) {
      await recordSsoRefusal(getDb(), error.reason, { address });
      const problem = new SsoRefusedError(error.reason).message;
      return json({ problem, provider: settings.name }, { status: 400, headers });
    }
    if (error instanceof SsoRefusedError)
      return json({ problem: error.message, provider: settings.name }, { status: 403, headers });
    throw error;
  }
}

export default function OidcCallback() {
  const { problem, provider } = useLoaderData<typeof loader>();
  return (
    <AuthFrame title={`Sign-in with ${provider} did not work`}>
      <p className="form-error" role="alert">
        {problem}
      </p>
      <p>
        <a href="/login">Back to sign-in</a>
      </p>
    </AuthFrame>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
