import * as client from "openid-client";
import { createCookie, type Cookie } from "@remix-run/node";
import { hostCookie } from "./sessions.server";
import type { OidcIdentity, SsoRefusal } from "../../db/accounts/sso";

/**
 * Single sign-on with OpenID Connect: the authorization code flow with PKCE (openid-client). Configured
 * by OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (OIDC_NAME names the provider on the sign-in
 * page). The flow's state, nonce and PKCE verifier travel in a signed cookie that lives ten minutes:
 * the browser cannot change them, and no server memory is needed between the two requests, so it works
 * across several app processes too.
 */
export type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

const FLOW_MS = 10 * 60_000;
export const CALLBACK_PATH = "/auth/oidc/callback";

/** The configured provider, or null when single sign-on is off (any of the three variables unset). */
export function oidcSettings(env = process.env): OidcSettings | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = env;
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME || new URL(issuer).host };
}

let discovered: { key: string; config: Promise<client.Configuration> } | undefined;

// A provider on this machine over plain http (a test or a local development provider) is allowed;
// anything else must be https, as openid-client requires.
const isLoopback = (url: URL) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

/** The provider's metadata and keys, fetched once per process (a failure is retried on the next use). */
export function oidcConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer} ${settings.clientId}`;
  if (discovered?.key !== key) {
    const issuer = new URL(settings.issuer);
    const config = client.discovery(
      issuer,
      settings.clientId,
      undefined,
      client.ClientSecretBasic(settings.clientSecret),
      issuer.protocol === "http:" && isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : {},
    );
    config.catch(() => (discovered = undefined));
    discovered = { key, config };
  }
  return discovered.config;
}

export type Flow = { state: string; nonce: string; verifier: string; redirectTo: string; startedAt: number };

let flowCookie: Cookie | undefined;
function oidcFlowCookie(): Cookie {
  if (!flowCookie) {
    const secret = process.env.SESSION_SECRET;
    if (!secret) throw new Error("SESSION_SECRET is not set: start Assay with `npm start`.");
    // Lax: the provider sends the browser back with a top-level GET, which Lax cookies go with.
    flowCookie = createCookie(hostCookie("assay_oidc"), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: process.env.NODE_ENV === "production",
      maxAge: FLOW_MS / 1000,
      secrets: [secret],
    });
  }
  return flowCookie;
}

/** The Set-Cookie header of a flow (exported for tests that must forge a flow with a different nonce). */
export const serializeFlow = (flow: Flow) => oidcFlowCookie().serialize(flow);
export const clearFlow = () => oidcFlowCookie().serialize("", { maxAge: 0, expires: new Date(0) });

/** The flow the request's cookie carries, if it is signed by us and younger than ten minutes. */
export async function readFlow(request: Request, now: number): Promise<Flow | null> {
  const flow = (await oidcFlowCookie().parse(request.headers.get("Cookie"))) as Flow | null;
  if (!flow || typeof flow.state !== "string" || typeof flow.startedAt !== "number") return null;
  return now - flow.startedAt <= FLOW_MS ? flow : null;
}

/** Where the provider sends the browser back: on PUBLIC_URL when set, else the request's own origin. */
export function callbackUrl(request: Request): URL {
  const origin = process.env.PUBLIC_URL?.replace(/\/$/, "") ?? new URL(request.url).origin;
  return new URL(CALLBACK_PATH, origin);
}

/** Starts a sign-in: the provider's authorization URL and the cookie that remembers this flow. */
export async function startOidc(
  settings: OidcSettings,
  request: Request,
  redirectTo: string,
  now = Date.now(),
) {
  const config = await oidcConfiguration(settings);
  const flow: Flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    redirectTo,
    startedAt: now,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(request).href,
    scope: "openid email profile",
    response_type: "code",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
  });
  return { url, setCookie: await serializeFlow(flow) };
}

/** A callback the app does not accept: its reason for the audit log and the page. */
export class OidcCallbackError extends Error {
  constructor(readonly reason: SsoRefusal) {
    super(reason);
  }
}

/**
 * Which check an openid-client error failed: it wraps the failure of oauth4webapi, whose cause names
 * the claim (`nonce`, `aud`) or the parameter (a "state" mismatch); anything else is the provider's.
 */
function refusalOf(error: unknown): SsoRefusal {
  for (
    let e = error as { message?: string; claim?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.claim === "nonce") return "nonce";
    if (e.claim === "aud" || e.claim === "azp") return "audience";
    if (/"state"/.test(e.message ?? "")) return "state";
  }
  return "provider";
}

/**
 * Finishes a sign-in: checks the flow cookie, exchanges the code (state, PKCE, the ID token's
 * signature, issuer, audience, nonce and expiry are all checked by openid-client) and returns who the
 * token says the person is, and where they were going. Throws OidcCallbackError.
 */
export async function finishOidc(settings: OidcSettings, request: Request, now = Date.now()) {
  const flow = await readFlow(request, now);
  if (!flow) throw new OidcCallbackError("state");
  const config = await oidcConfiguration(settings);
  // The provider answered at the registered redirect URI; behind a proxy request.url may name another.
  const current = callbackUrl(request);
  current.search = new URL(request.url).search;
  let claims: Record<string, unknown> & { iss: string; sub: string };
  let idToken: string | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const verified = tokens.claims();
    if (!verified) throw new OidcCallbackError("provider");
    claims = verified;
    idToken = tokens.id_token;
    // Some providers keep the email out of the ID token: then it comes from userinfo, for the same subject.
    if (typeof claims.email !== "string")
      claims = { ...(await client.fetchUserInfo(config, tokens.access_token, verified.sub)), ...verified };
  } catch (error) {
    throw error instanceof OidcCallbackError ? error : new OidcCallbackError(refusalOf(error));
  }
  const identity: OidcIdentity = {
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof claims.email === "string" ? claims.email : undefined,
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === "string" ? claims.name : undefined,
  };
  return { identity, redirectTo: flow.redirectTo, idToken };
}

/**
 * Where sign-out sends the browser after a single sign-on: the provider's end-session endpoint
 * (RP-initiated logout, with the session's ID token as the hint), which ends the provider's session
 * too and sends the person back to /login. Null when the provider advertises no such endpoint.
 */
export async function providerLogoutUrl(settings: OidcSettings, request: Request, idToken: string) {
  const config = await oidcConfiguration(settings);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, {
    id_token_hint: idToken,
    post_logout_redirect_uri: new URL("/login", callbackUrl(request)).href,
  }).href;
}
