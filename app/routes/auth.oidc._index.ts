import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { oidcSettings, startOidc } from "~/security/oidc.server";
import { safeRedirect } from "~/security/auth.server";

/**
 * "Sign in with <provider>": sends the browser to the provider with a fresh state, nonce and PKCE
 * challenge (kept in a signed cookie for the callback). Without OIDC_ISSUER this page does not exist.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const settings = oidcSettings();
  if (!settings) throw json({ message: "Single sign-on is not configured on this server." }, { status: 404 });
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  try {
    const { url, setCookie } = await startOidc(settings, request, redirectTo);
    return redirect(url.href, { headers: { "Set-Cookie": setCookie, "Referrer-Policy": "no-referrer" } });
  } catch {
    throw json(
      {
        message: `${settings.name} cannot be reached just now, so single sign-on cannot start. Try again later.`,
      },
      { status: 502 },
    );
  }
}
