import { json, redirect } from "@remix-run/node";
import type { PublicUser } from "../../db/accounts/users";
import { holdsRole, orderedRoles, type Role } from "../../scripts/inputs/roles";
import { clearSessionCookie, getSessionUser, hasSessionCookie } from "./sessions.server";

export const roleHome: Record<Role, string> = {
  admin: "/admin",
  analyst: "/analyst",
  expert: "/expert",
  convener: "/convener",
};

/** Where a person lands after sign-in: the home of their first role, in the one order roles are shown. */
export function homeOf(roles: readonly Role[]): string {
  return roleHome[orderedRoles(roles)[0] ?? "expert"];
}

/** The signed-in, active user of a live session, or null. Deactivation ends a user's sessions at once. */
export async function getOptionalUser(request: Request): Promise<PublicUser | null> {
  return getSessionUser(request);
}

/** Where a person whose password must change is sent, whatever page they asked for. */
export const PASSWORD_PAGE = "/account/password";

/**
 * The signed-in user, or a redirect to sign-in. A person whose password must change (a seeded demo
 * account's known password) is sent to the password page first, unless this is that page.
 */
export async function requireUser(
  request: Request,
  options: { allowPasswordChangeDue?: boolean } = {},
): Promise<PublicUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    const back = `${url.pathname}${url.search}`;
    // A cookie of an ended session is removed, so the browser stops sending it.
    const headers: HeadersInit = hasSessionCookie(request)
      ? { "Set-Cookie": await clearSessionCookie() }
      : {};
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, { headers });
  }
  if (user.mustChangePassword && !options.allowPasswordChangeDue) throw redirect(PASSWORD_PAGE);
  return user;
}

/**
 * Every loader and action calls this itself: a parent route's guard does not protect its children,
 * because Remix runs loaders in parallel. Signed-out visitors go to sign-in; other roles get a 403.
 */
export async function requireUserWithRole(
  request: Request,
  allowed: Role | readonly Role[],
): Promise<PublicUser> {
  const user = await requireUser(request);
  // A person may hold several roles: the page asks for one of its own, whatever else they hold.
  if (!holdsRole(user.roles, allowed)) {
    const needed = typeof allowed === "string" ? [allowed] : allowed;
    const held = orderedRoles(user.roles).join(" and ");
    throw json(
      { message: `This page is for the ${needed.join(" or ")} role; you are signed in as ${held}.` },
      { status: 403 },
    );
  }
  return user;
}

export const requireAdmin = (request: Request) => requireUserWithRole(request, "admin");

const REDIRECT_BASE = new URL("http://assay.invalid");

/**
 * Where to go after sign-in: `to` when it is a path on this site, else `fallback`. An open redirect to
 * another site would be a phishing aid, so anything a browser could read as another origin is refused:
 * `//host`, any backslash (browsers read it as a slash), control characters (browsers drop a tab or
 * newline, so "/<tab>/host" becomes `//host`), schemes. What is returned is the path as resolved, so it
 * is exactly what was checked.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.includes("\\"))
    return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE.origin || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
