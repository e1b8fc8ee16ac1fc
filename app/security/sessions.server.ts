import { createHash, randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { loadConfig } from "../../db/platform/config";
import type { Db } from "../../db/platform/client";
import {
  createSession,
  deleteSession,
  findSessionUser,
  pruneExpiredSessions,
  sessionHandle,
  type SessionLifetime,
} from "../../db/accounts/sessions";
import type { PublicUser } from "../../db/accounts/users";
import { getDb } from "../utils/db.server";

/**
 * Sign-in sessions kept on the server (table `sessions`). The cookie carries only a random id of 32
 * bytes, signed with SESSION_SECRET; the table keeps the id's SHA-256, so a copy of the table or a log
 * of it cannot be replayed as a cookie. Ending a session is deleting its row.
 */
// Names are read when used: server.ts imports this module before it settles NODE_ENV.
export const sessionCookieName = () => hostCookie("assay_session");

/**
 * A cookie's name: in production with the `__Host-` prefix, which browsers accept only from a secure
 * origin with Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant or
 * overwrite it; elsewhere (development over http) without it.
 */
export function hostCookie(name: string) {
  return process.env.NODE_ENV === "production" ? `__Host-${name}` : `__${name}`;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

let cookie: Cookie | undefined;
let lifetime: SessionLifetime | undefined;

function sessionCookie(): Cookie {
  if (!cookie) {
    const secret = process.env.SESSION_SECRET;
    if (!secret) throw new Error("SESSION_SECRET is not set: start Assay with `npm start`.");
    cookie = createCookie(sessionCookieName(), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: process.env.NODE_ENV === "production",
      secrets: [secret],
    });
  }
  return cookie;
}

/** SESSION_IDLE_HOURS and SESSION_MAX_DAYS, validated once (the server already checked them at start). */
export function sessionLifetime(): SessionLifetime {
  if (!lifetime) {
    const config = loadConfig(process.env);
    lifetime = { idleMs: config.SESSION_IDLE_HOURS * 3_600_000, maxMs: config.SESSION_MAX_DAYS * 86_400_000 };
  }
  return lifetime;
}

const hashId = (id: string) => createHash("sha256").update(id).digest("hex");

/**
 * The SHA-256 (hex) of the session id the request's cookie carries, or null when it has no well-formed
 * one (it may name an ended session: this does not look it up). For binding other server-side state to
 * a session (say, a CSRF token's HMAC input); never put it in a response or a log.
 */
export async function sessionIdHash(request: Request): Promise<string | null> {
  const id: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof id === "string" && ID_PATTERN.test(id) ? hashId(id) : null;
}

/**
 * Creates a session for `userId` and returns its Set-Cookie header. Always a new random id: a session
 * is never adopted from what the browser sent (no fixation).
 */
export async function startSession(
  db: Db,
  userId: number,
  meta: { userAgent: string; ip: string; idToken?: string },
  now = new Date(),
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const span = sessionLifetime();
  await createSession(db, { idHash: hashId(id), userId, ...meta }, span, now);
  return sessionCookie().serialize(id, { maxAge: Math.floor(span.maxMs / 1000) });
}

/**
 * Signs `userId` in: the session the request came with (if any) is deleted, expired sessions are
 * pruned, and a new one is made. Returns the Set-Cookie header. `idToken`: the provider's, after a
 * single sign-on, kept for the sign-out.
 */
export async function signIn(
  request: Request,
  userId: number,
  ip: string,
  now = new Date(),
  idToken?: string,
): Promise<string> {
  const db = getDb();
  const previous = await sessionIdHash(request);
  if (previous) await deleteSession(db, previous);
  await pruneExpiredSessions(db, now);
  const meta = { userAgent: request.headers.get("User-Agent") ?? "", ip, idToken };
  return startSession(db, userId, meta, now);
}

/**
 * Ends the request's session (deletes its row): the Set-Cookie header that clears the cookie, and
 * the provider's ID token the session kept (a single sign-on), to end the provider's session too.
 */
export async function signOut(request: Request): Promise<{ setCookie: string; idToken: string | null }> {
  const idHash = await sessionIdHash(request);
  const idToken = idHash ? await deleteSession(getDb(), idHash) : null;
  return { setCookie: await clearSessionCookie(), idToken };
}

/** A Set-Cookie header that removes the session cookie from the browser. */
export function clearSessionCookie(): Promise<string> {
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Whether the request carries a session cookie at all (valid or not): then a redirect to sign-in clears it. */
export function hasSessionCookie(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "")
    .split(";")
    .some((part) => part.trim().startsWith(`${sessionCookieName()}=`));
}

/** The active user of the request's live session, or null. Marks the session used (at most once a minute). */
export async function getSessionUser(request: Request, now = new Date()): Promise<PublicUser | null> {
  const idHash = await sessionIdHash(request);
  if (!idHash) return null;
  return (await findSessionUser(getDb(), idHash, sessionLifetime(), now)) ?? null;
}

/** The short handle (as the admin's session list shows it) of the request's session, or null. */
export async function currentSessionHandle(request: Request): Promise<string | null> {
  const idHash = await sessionIdHash(request);
  return idHash ? sessionHandle(idHash) : null;
}
