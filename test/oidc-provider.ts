import http from "node:http";
import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider for tests (oidc-provider, in-memory adapter, its development login
 * and consent pages: any password is accepted for a known login). Its people are below; their login is
 * the `sub`. Used by the single sign-on vitest and by the browser tests' global setup.
 */
export type TestPerson = { email: string; email_verified: boolean; name: string };

export const testPeople: Record<string, TestPerson> = {
  ada: { email: "Ada@Example.org", email_verified: true, name: "Ada Lovelace" },
  // Full-width letters: NFKC makes this eve@example.org.
  eve: { email: "ｅｖｅ@example.org", email_verified: true, name: "Eve Invited" },
  pat: { email: "pat@example.org", email_verified: true, name: "Pat Password" },
  mallory: { email: "mallory@example.org", email_verified: false, name: "Mallory Unverified" },
  stranger: { email: "stranger@example.org", email_verified: true, name: "Sam Stranger" },
  grace: { email: "grace@example.org", email_verified: true, name: "Grace Hopper" },
};

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's signing key (private JWK), for a test that forges a token the provider could have made. */
  signingKey: { kid: string; jwk: Record<string, unknown> };
  close: () => Promise<void>;
};

/** Starts the provider on a free port of 127.0.0.1, with one client whose redirect URIs are given. */
export async function startTestProvider(redirectUris: string[]): Promise<TestProvider> {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = "test-key";
  const jwk = { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  const clientId = "assay-test";
  const clientSecret = "a-client-secret-for-tests-only";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        // Sign-out ends the provider's session and comes back to the app's sign-in page.
        post_logout_redirect_uris: redirectUris.map((uri) => new URL("/login", uri).href),
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ["a-cookie-key-for-tests-only"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Claims in the ID token itself, as most organisations' providers send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const person = testPeople[sub];
      return person ? { accountId: sub, claims: () => ({ sub, ...person }) } : undefined;
    },
  });
  handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    signingKey: { kid, jwk },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Walks the provider's pages as a browser would, without one: follows redirects, signs in as `login`
 * on the development login page, confirms consent, and returns the URL the provider finally sends the
 * browser to (the app's callback, which is not fetched).
 */
export async function walkProvider(
  authorizationUrl: string,
  login: string,
  stopAt: string,
  jar = new Map<string, string>(),
): Promise<URL> {
  const cookieHeader = () => cookiesOf(jar);
  const remember = (response: Response) => keepCookies(jar, response);
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(stopAt)) return url;
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      redirect: "manual",
      headers: {
        Cookie: cookieHeader(),
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
    });
    remember(response);
    body = undefined;
    const location = response.headers.get("Location");
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`the provider answered ${response.status} without a form:\n${html}`);
    body = new URLSearchParams({ prompt, ...(prompt === "login" ? { login, password: "any" } : {}) });
    url = new URL(action, url);
  }
  throw new Error("the provider did not send the browser back within 20 steps");
}

/** The Cookie header of a jar (the provider's cookies, as a browser keeps them between visits). */
export const cookiesOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** Keeps a response's cookies in the jar (an expired one is kept empty, which the provider ignores). */
export function keepCookies(jar: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}
