import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "~/security/sessions.server";
import { oidcSettings, providerLogoutUrl } from "~/security/oidc.server";

/**
 * Sign-out is a POST so that a link or an image elsewhere cannot sign a user out. After a single
 * sign-on it also ends the provider's session, when the provider offers that (its end-session
 * endpoint), which then sends the person to /login; otherwise straight to /login.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { setCookie, idToken } = await signOut(request);
  const settings = oidcSettings();
  // A provider that cannot be reached does not keep anyone signed in here: Assay's session is ended.
  const provider =
    idToken && settings ? await providerLogoutUrl(settings, request, idToken).catch(() => null) : null;
  return redirect(provider ?? "/login", { headers: { "Set-Cookie": setCookie } });
}

export async function loader() {
  return redirect("/");
}
