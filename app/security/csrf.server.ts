import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { json, type ActionFunction, type ActionFunctionArgs, type ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { CSRF_FIELD } from "./csrf";
import { discardBody, FORM_BODY_LIMIT, readBodyWithin } from "./form-body.server";
import { publicOrigin, requestOrigin, type OriginOptions } from "./origin.server";
import { mapRouteModules } from "../utils/route-modules.server";
import { hostCookie, sessionCookieName } from "./sessions.server";

/**
 * Every request that changes something passes, before any action runs: an origin check (Origin, else
 * Referer, must be this app's: `refuseCrossSiteForms`, in Express), then per route (`guardActions`) the
 * route's `beforeBody`, a size limit while the body is read, and this session's CSRF token. The token
 * is an HMAC of the session cookie, so it changes with the session and only a page of this site can know
 * it; a signed-out visitor (the sign-in form) gets a random cookie of its own to bind the token to.
 * Key-authenticated API calls (under /api/, no cookie) carry no ambient authority another site could
 * borrow, so both checks let them pass: those routes check their key themselves.
 */

const anonymousCookie = () => hostCookie("assay_csrf");

/** What a route module may export for the guard, beside `action`. */
export interface GuardedRouteModule {
  action?: ActionFunction;
  /** Runs before the body is read (a rate limit, a role check): may throw a Response. Must not read the body. */
  beforeBody?: (args: ActionFunctionArgs) => unknown;
  /** The most bytes this route's forms may send (default FORM_BODY_LIMIT). */
  bodyLimit?: number;
  /** The sentence of the 413 when a form is larger. */
  bodyLimitMessage?: string;
}

export const CROSS_SITE =
  "This form was sent from another site, so it was refused and nothing changed. Open Assay and submit it there.";
export const EXPIRED = "This form has expired; reload the page and try again.";

/** The token for this request's session, and the cookie to set when a signed-out visitor has none yet. */
export function csrfToken(request: Request): { token: string; setCookie: string | null } {
  const cookie = tokenCookie(request);
  if (cookie) return { token: tokenFor(cookie), setCookie: null };
  const value = randomBytes(32).toString("base64url");
  const secure = process.env.NODE_ENV === "production" ? "; Secure" : "";
  const setCookie = `${anonymousCookie()}=${value}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  return { token: tokenFor(`${anonymousCookie()}=${value}`), setCookie };
}

/** Whether `submitted` is the token of this request's session, compared in constant time. */
export function isValidCsrfToken(request: Request, submitted: unknown): boolean {
  const cookie = tokenCookie(request);
  if (!cookie || typeof submitted !== "string") return false;
  const expected = Buffer.from(tokenFor(cookie));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `name=value` of the cookie the token is bound to: the session's, else the signed-out visitor's. */
function tokenCookie(request: Request): string | null {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const name = [sessionCookieName(), anonymousCookie()].find((candidate) => cookies.get(candidate));
  return name ? `${name}=${cookies.get(name)}` : null;
}

function tokenFor(cookie: string): string {
  const secret = process.env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set: start Assay with `npm start`.");
  return createHmac("sha256", secret).update(`csrf\0${cookie}`).digest("base64url");
}

/**
 * Express middleware: a request that may change something (not GET or HEAD) from another site, or whose
 * origin cannot be told, gets a 403 before Remix sees it. (Remix's own document-request check answers a
 * foreign origin with a 500, and believes X-Forwarded-Host from anyone.)
 */
export function refuseCrossSiteForms(options: OriginOptions): RequestHandler {
  let hinted = false;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || isKeyApiCall(req.path, req.headers.cookie))
      return next();
    const headers = new Headers();
    for (const name of ["origin", "referer", "host", "x-forwarded-host", "x-forwarded-proto"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers.set(name, value);
    }
    const expected = publicOrigin(headers, "encrypted" in req.socket ? "https" : "http", options);
    const seen = requestOrigin(headers);
    if (seen !== null && seen === expected) {
      // Checked, and more strictly than Remix's check, which would refuse a proxy's rewritten Host.
      delete req.headers.origin;
      return next();
    }
    if (!hinted && seen?.startsWith("https:") && seen === expected?.replace(/^http:/, "https:")) {
      hinted = true;
      console.warn(
        `Refused a form from ${seen} at ${expected}: behind an HTTPS proxy, set PUBLIC_URL or TRUST_PROXY.`,
      );
    }
    res.status(403).set("Cache-Control", "no-store");
    // A Remix data request shows the refusal in the page's error boundary; a plain form post gets the sentence.
    if (typeof req.query._data === "string") res.set("X-Remix-Catch", "yes").json({ message: CROSS_SITE });
    else res.type("text/plain").send(CROSS_SITE);
  };
}

function isKeyApiCall(path: string, cookie: string | null | undefined): boolean {
  return path.startsWith("/api/") && !cookie;
}

/** The build with every route's action behind the guard, so no route can forget it. */
export function guardActions(build: ServerBuild): ServerBuild {
  return mapRouteModules(build, (module) => {
    const guardable = module as GuardedRouteModule;
    return guardable.action ? { ...module, action: guarded(guardable, guardable.action) } : module;
  });
}

function guarded(module: GuardedRouteModule, action: ActionFunction): ActionFunction {
  return async (args) => {
    const { request } = args;
    if (request.method === "GET" || request.method === "HEAD") return action(args);
    if (isKeyApiCall(new URL(request.url).pathname, request.headers.get("Cookie"))) return action(args);
    try {
      await module.beforeBody?.(args);
    } catch (refusal) {
      discardBody(request);
      throw refusal;
    }
    const limit = module.bodyLimit ?? FORM_BODY_LIMIT;
    const body = await readBodyWithin(request, limit);
    if (!body) throw refusal(413, module.bodyLimitMessage ?? tooLarge(limit));
    const headers = new Headers(request.headers);
    headers.delete("Transfer-Encoding");
    headers.set("Content-Length", String(body.byteLength));
    const forwarded = new Request(request.url, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    });
    const form = await submittedForm(forwarded.clone());
    if (!isValidCsrfToken(request, form?.get(CSRF_FIELD) ?? null)) throw refusal(403, EXPIRED);
    // PostgreSQL cannot store a NUL in text: refused here for every form at once, not as a 500 later.
    const withNul = [...(form ?? [])].find(
      ([, value]) => typeof value === "string" && value.includes("\u0000"),
    );
    if (withNul)
      throw refusal(
        400,
        `The field "${withNul[0]}" contains a NUL character, which cannot be stored; nothing was saved.`,
      );
    return action({ ...args, request: forwarded });
  };
}

async function submittedForm(request: Request): Promise<FormData | null> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return null;
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

function refusal(status: number, message: string) {
  return json({ message }, { status, headers: { "Cache-Control": "no-store" } });
}

const tooLarge = (limit: number) =>
  `This form is larger than ${Math.round(limit / 1024 / 1024)} MB, the most this page accepts; nothing was saved.`;
