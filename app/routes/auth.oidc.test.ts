import * as client from "openid-client";
import { decodeJwt, importJWK, SignJWT } from "jose";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import {
  cookiesOf,
  keepCookies,
  startTestProvider,
  walkProvider,
  type TestProvider,
} from "../../test/oidc-provider";
import { auditLog, campaignExperts, campaigns, users } from "../../db/schema";
import { createUser, type PublicUser } from "../../db/accounts/users";
import { createInvitation } from "../../db/accounts/account-tokens";
import { saveSignInSettings } from "../../db/accounts/sign-in-settings";

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider on a free port): the app's start
 * and callback routes run as the server runs them, the provider's pages are walked over HTTP.
 */
let t: TestDatabase;
let provider: TestProvider;
let start: typeof import("./auth.oidc._index");
let callback: typeof import("./auth.oidc.callback");
let oidc: typeof import("../security/oidc.server");
let admin: PublicUser;
const APP = "http://localhost";
const CALLBACK = `${APP}/auth/oidc/callback`;
const logged: string[] = [];

beforeAll(async () => {
  provider = await startTestProvider([CALLBACK]);
  t = await createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    SESSION_SECRET: "a-test-secret-that-is-long-enough-to-sign",
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: "Test IdP",
  });
  [start, callback, oidc] = await Promise.all([
    import("./auth.oidc._index"),
    import("./auth.oidc.callback"),
    import("../security/oidc.server"),
  ]);
  admin = await createUser(t.db, "cli", {
    email: "root@test.local",
    name: "Root",
    roles: ["admin"],
    password: "long-enough-1",
  });
  for (const stream of ["log", "warn", "error"] as const)
    vi.spyOn(console, stream).mockImplementation((...args) => void logged.push(args.join(" ")));
});
afterAll(async () => {
  vi.restoreAllMocks();
  for (const key of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_NAME"])
    delete process.env[key];
  await provider.close();
  await t.drop();
});

async function run(loader: (args: never) => Promise<Response>, request: Request): Promise<Response> {
  try {
    return await loader({ request, params: {}, context: { cspNonce: "", ip: "127.0.0.1" } } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const cookiePair = (setCookie: string) => setCookie.split(";")[0];

/** Starts a sign-in at the app, signs in at the provider as `login`; the callback URL and flow cookie. */
async function throughProvider(login: string, redirectTo = "", jar = new Map<string, string>()) {
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const started = await run(start.loader, new Request(`${APP}/auth/oidc${query}`));
  expect(started.status).toBe(302);
  const authorization = new URL(started.headers.get("Location")!);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  const flowCookie = cookiePair(started.headers.get("Set-Cookie")!);
  const back = await walkProvider(authorization.href, login, CALLBACK, jar);
  return { back, flowCookie };
}

const finish = (url: URL | string, cookie: string) =>
  run(callback.loader, new Request(url, { headers: { Cookie: cookie, "User-Agent": "vitest" } }));

/** The whole flow for `login`: the callback's response. */
async function signInAs(login: string, redirectTo = "") {
  const { back, flowCookie } = await throughProvider(login, redirectTo);
  return finish(back, flowCookie);
}

const userByEmail = async (email: string) =>
  (await t.db.select().from(users).where(eq(users.email, email)))[0];
const refusals = async () =>
  (await t.db.select().from(auditLog).where(eq(auditLog.action, "user.sso-refused"))).map(
    (e) => (e.detail as { reason: string }).reason,
  );
const userCount = async () => (await t.db.select({ id: users.id }).from(users)).length;

test("an invited email (differing in case and Unicode form) signs in, gets the invitation's roles and joins its campaign", async () => {
  const [campaign] = await t.db
    .insert(campaigns)
    .values({ name: "Invited pool", poolDepth: 5, ratersPerProposal: 1 })
    .returning();
  // The provider says "ｅｖｅ@example.org" (full-width letters); the admin invited "EVE@example.org".
  await createInvitation(t.db, admin, {
    email: "EVE@example.org",
    roles: ["expert"],
    campaignId: campaign.id,
  });
  const response = await signInAs("eve", "/expert");
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/expert");
  expect(response.headers.getSetCookie().some((c) => c.startsWith("__assay_session="))).toBe(true);
  const eve = await userByEmail("eve@example.org");
  expect(eve).toMatchObject({ name: "Eve Invited", roles: ["expert"], oidcSubject: "eve" });
  const pool = await t.db
    .select()
    .from(campaignExperts)
    .where(and(eq(campaignExperts.campaignId, campaign.id), eq(campaignExperts.userId, eve.id)));
  expect(pool).toHaveLength(1);
  // The second sign-in finds the linked identity: no second account.
  const before = await userCount();
  expect((await signInAs("eve")).headers.get("Location")).toBe("/expert");
  expect(await userCount()).toBe(before);
});

test("an existing password account with the verified email is linked, not duplicated", async () => {
  const pat = await createUser(t.db, "cli", {
    email: "Pat@Example.org",
    name: "Pat",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  const response = await signInAs("pat");
  expect(response.headers.get("Location")).toBe("/analyst");
  const [row] = await t.db.select().from(users).where(eq(users.id, pat.id));
  expect(row).toMatchObject({ oidcIssuer: provider.issuer, oidcSubject: "pat", name: "Pat" });
});

test("an unknown email is refused by default, and joins with the admin's roles once allowed", async () => {
  const before = await userCount();
  const refused = await signInAs("stranger");
  expect(refused.status).toBe(403);
  expect((await refused.json()).problem).toMatch(/no Assay account or invitation/);
  expect(await userCount()).toBe(before);
  expect(await refusals()).toContain("unknown email");

  await saveSignInSettings(t.db, admin, {
    unknownEmails: "join",
    joinRoles: ["analyst"],
    passwordSignIn: true,
  });
  const joined = await signInAs("stranger");
  expect(joined.headers.get("Location")).toBe("/analyst");
  expect(await userByEmail("stranger@example.org")).toMatchObject({
    roles: ["analyst"],
    name: "Sam Stranger",
  });
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "refuse",
    joinRoles: ["expert"],
    passwordSignIn: true,
  });
});

test("an email the provider has not verified is refused, even when strangers may join", async () => {
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "join",
    joinRoles: ["expert"],
    passwordSignIn: true,
  });
  const before = await userCount();
  const response = await signInAs("mallory");
  expect(response.status).toBe(403);
  expect((await response.json()).problem).toMatch(/not verified your email/);
  expect(response.headers.getSetCookie().some((c) => c.startsWith("__assay_session="))).toBe(false);
  expect(await userCount()).toBe(before);
  expect(await refusals()).toContain("email not verified");
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "refuse",
    joinRoles: ["expert"],
    passwordSignIn: true,
  });
});

test("a wrong state, a missing flow cookie or a wrong nonce is refused, with an audit entry and nothing written", async () => {
  await createInvitation(t.db, admin, { email: "grace@example.org", roles: ["convener"] });
  const before = await userCount();
  const { back, flowCookie } = await throughProvider("grace");
  const wrongState = new URL(back);
  wrongState.searchParams.set("state", "not-the-state-we-sent");
  const byState = await finish(wrongState, flowCookie);
  expect(byState.status).toBe(400);
  expect((await byState.json()).problem).toMatch(/not started here/);
  // Without the cookie (another browser, or a link planted by someone else) the state cannot match.
  expect((await finish(back, "")).status).toBe(400);

  // The same flow, with a cookie naming another nonce (signed, so only the server could make it).
  const { back: again, flowCookie: cookie } = await throughProvider("grace");
  const flow = (await oidc.readFlow(new Request(APP, { headers: { Cookie: cookie } }), Date.now()))!;
  const forged = cookiePair(await oidc.serializeFlow({ ...flow, nonce: "another-nonce" }));
  const byNonce = await finish(again, forged);
  expect(byNonce.status).toBe(400);
  expect((await byNonce.json()).problem).toMatch(/does not belong to this sign-in/);

  expect(await userCount()).toBe(before);
  expect(await refusals()).toEqual(expect.arrayContaining(["state", "nonce"]));
});

test("an ID token made for another application (audience) is refused", async () => {
  const settings = oidc.oidcSettings()!;
  const config = await oidc.oidcConfiguration(settings);
  const key = await importJWK(provider.signingKey.jwk as never, "RS256");
  // The provider's own key signs a token like the real one but for another client: only `aud` differs.
  config[client.customFetch] = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (!String(url).endsWith("/token")) return response;
    const body = (await response.json()) as { id_token: string };
    const claims = decodeJwt(body.id_token);
    body.id_token = await new SignJWT({ ...claims, aud: "another-app" })
      .setProtectedHeader({ alg: "RS256", kid: provider.signingKey.kid })
      .sign(key);
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  };
  try {
    const before = await userCount();
    const response = await signInAs("ada");
    expect(response.status).toBe(400);
    expect((await response.json()).problem).toMatch(/another application/);
    expect(await userCount()).toBe(before);
    expect(await refusals()).toContain("audience");
  } finally {
    config[client.customFetch] = (url, options) => fetch(url, options as RequestInit);
  }
});

test("signing out after a single sign-on ends the provider's session too, and comes back to /login", async () => {
  const logout = await import("./logout");
  const jar = new Map<string, string>(); // the browser's cookies at the provider
  const { back, flowCookie } = await throughProvider("eve", "", jar);
  const signedIn = await finish(back, flowCookie);
  const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("__assay_session="))!;
  const out = await logout.action({
    request: new Request(`${APP}/logout`, { method: "POST", headers: { Cookie: cookiePair(session) } }),
    params: {},
    context: { cspNonce: "", ip: "127.0.0.1" },
  } as never);
  expect(out.headers.getSetCookie().join()).toMatch(/__assay_session=;/);
  const end = new URL(out.headers.get("Location")!);
  expect(end.origin).toBe(provider.issuer);
  expect(end.searchParams.get("post_logout_redirect_uri")).toBe(`${APP}/login`);
  expect(decodeJwt(end.searchParams.get("id_token_hint")!)).toMatchObject({ sub: "eve" });
  // The provider asks to confirm (its own page), then ends its session and sends the browser to /login.
  const asked = await fetch(end, { headers: { Cookie: cookiesOf(jar) }, redirect: "manual" });
  keepCookies(jar, asked);
  const html = await asked.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)![1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1];
  let confirmed = await fetch(new URL(action, end), {
    method: "POST",
    body: new URLSearchParams({ xsrf, logout: "yes" }),
    headers: { Cookie: cookiesOf(jar), "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  keepCookies(jar, confirmed);
  while (confirmed.headers.get("Location")?.startsWith(provider.issuer)) {
    confirmed = await fetch(confirmed.headers.get("Location")!, {
      headers: { Cookie: cookiesOf(jar) },
      redirect: "manual",
    });
    keepCookies(jar, confirmed);
  }
  expect(confirmed.headers.get("Location")).toBe(`${APP}/login`);
  // The provider no longer knows the browser: the next sign-in asks for a login again.
  const again = await run(start.loader, new Request(`${APP}/auth/oidc`));
  let page = await fetch(again.headers.get("Location")!, {
    headers: { Cookie: cookiesOf(jar) },
    redirect: "manual",
  });
  while (page.headers.get("Location")) {
    keepCookies(jar, page);
    page = await fetch(new URL(page.headers.get("Location")!, provider.issuer), {
      headers: { Cookie: cookiesOf(jar) },
      redirect: "manual",
    });
  }
  expect(/name="prompt" value="([^"]+)"/.exec(await page.text())?.[1]).toBe("login");
});

test("signing out of a password session goes straight to /login", async () => {
  const logout = await import("./logout");
  const { createSessionCookie } = await import("../../test/session-cookie");
  const cookie = await createSessionCookie(t.db, admin.id);
  const out = await logout.action({
    request: new Request(`${APP}/logout`, { method: "POST", headers: { Cookie: cookie } }),
    params: {},
    context: { cspNonce: "", ip: "127.0.0.1" },
  } as never);
  expect(out.headers.get("Location")).toBe("/login");
});

test("no code, token or state reaches a log line", async () => {
  const { back, flowCookie } = await throughProvider("stranger");
  await finish(back, flowCookie);
  const secrets = [back.searchParams.get("code")!, back.searchParams.get("state")!, flowCookie.split("=")[1]];
  expect(logged.length).toBeGreaterThan(0);
  for (const line of logged) for (const secret of secrets) expect(line).not.toContain(secret);
});

test("with password sign-in switched off, only accounts holding the admin role may use a password", async () => {
  const login = await import("./login");
  const expert = await createUser(t.db, "cli", {
    email: "password-expert@test.local",
    name: "Password Expert",
    roles: ["expert"],
    password: "long-enough-1",
  });
  const post = (email: string) =>
    run(
      login.action,
      new Request(`${APP}/login`, {
        method: "POST",
        body: new URLSearchParams({ email, password: "long-enough-1", redirectTo: "" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "refuse",
    joinRoles: ["expert"],
    passwordSignIn: false,
  });
  const page = await (await run(login.loader, new Request(`${APP}/login`))).json();
  expect(page).toEqual({ sso: { name: "Test IdP" }, passwordForAll: false });
  const refused = await post(expert.email);
  expect(refused.status).toBe(403);
  expect(refused.headers.get("Set-Cookie")).toBeNull();
  expect((await post(admin.email)).status).toBe(302);
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "refuse",
    joinRoles: ["expert"],
    passwordSignIn: true,
  });
  expect((await post(expert.email)).status).toBe(302);
});
