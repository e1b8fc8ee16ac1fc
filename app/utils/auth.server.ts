import { json, redirect } from "@remix-run/node";
import { getUser, type PublicUser } from "../../db/users";
import type { Role } from "../../db/schema";
import { getDb } from "./db.server";
import { getSession, sessionStorage } from "./session.server";

export const roleHome: Record<Role, string> = {
  admin: "/admin",
  analyst: "/analyst",
  expert: "/expert",
  convener: "/convener",
};

/** The signed-in, active user, or null. A deactivated user's cookie stops working at once. */
export async function getOptionalUser(request: Request): Promise<PublicUser | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "number") return null;
  const user = await getUser(getDb(), userId);
  return user && user.active ? user : null;
}

export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    const back = `${url.pathname}${url.search}`;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, {
      headers: { "Set-Cookie": await sessionStorage().destroySession(await getSession(request)) },
    });
  }
  return user;
}

/**
 * Every loader and action calls this itself: a parent route's guard does not protect its children,
 * because Remix runs loaders in parallel. Signed-out visitors go to sign-in; other roles get a 403.
 */
export async function requireUserWithRole(request: Request, allowed: Role | readonly Role[]): Promise<PublicUser> {
  const user = await requireUser(request);
  const roles: readonly Role[] = typeof allowed === "string" ? [allowed] : allowed;
  if (!roles.includes(user.role)) {
    throw json({ message: `This page is for the ${roles.join(" or ")} role; you are signed in as ${user.role}.` }, { status: 403 });
  }
  return user;
}

export const requireAdmin = (request: Request) => requireUserWithRole(request, "admin");

/** Only same-site paths: an open redirect to another site after sign-in would be a phishing aid. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
