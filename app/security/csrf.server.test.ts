import type { ActionFunctionArgs, ServerBuild } from "@remix-run/node";
import { csrfToken, EXPIRED, guardActions, isValidCsrfToken, type GuardedRouteModule } from "./csrf.server";
import { FORM_BODY_LIMIT } from "./form-body.server";

/**
 * The per-route half of the guard (csrf.server.ts) on a build of one route whose action records its
 * calls: the token, the body limit (sized and chunked) and `beforeBody`. The origin half, and the whole
 * guard on the real app, are covered by e2e/csrf.spec.ts.
 */
process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
const SESSION = "__assay_session=eyJ1c2VySWQiOjF9.signature";

function guardedRoute(exports: Omit<GuardedRouteModule, "action"> = {}) {
  const calls: Request[] = [];
  const action = async ({ request }: ActionFunctionArgs) => {
    calls.push(request);
    return new Response("done");
  };
  const build = {
    routes: { "routes/form": { id: "routes/form", path: "form", module: { action, ...exports } } },
  };
  const guarded = guardActions(build as unknown as ServerBuild).routes["routes/form"].module.action!;
  const call = async (request: Request): Promise<Response> => {
    try {
      return (await guarded({ request, params: {}, context: { cspNonce: "", ip: "127.0.0.1" } })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  return { calls, call };
}

const tokenOf = (cookie: string) =>
  csrfToken(new Request("http://localhost/", { headers: { Cookie: cookie } })).token;

function post(
  body: BodyInit | ReadableStream,
  headers: Record<string, string> = {},
  url = "http://localhost/form",
) {
  const init = { method: "POST", body, headers: { Cookie: SESSION, ...headers }, duplex: "half" };
  return new Request(url, init as RequestInit);
}
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** A body of `total` bytes made one 64 KB chunk per pull, each on a later turn; `produced` counts what was made. */
function slowBody(total: number) {
  const chunk = new Uint8Array(64 * 1024).fill(97);
  let ended = () => {};
  const state = { produced: 0, ended: new Promise<void>((resolve) => (ended = resolve)) };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      if (state.produced >= total) {
        ended();
        return controller.close();
      }
      state.produced += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

describe("the CSRF token", () => {
  it("is bound to the session cookie: another session's token, a changed session or no token fail", () => {
    const token = tokenOf(SESSION);
    const request = (cookie: string) => new Request("http://localhost/", { headers: { Cookie: cookie } });
    expect(isValidCsrfToken(request(SESSION), token)).toBe(true);
    expect(isValidCsrfToken(request(`theme=dark; ${SESSION}`), token)).toBe(true);
    expect(isValidCsrfToken(request("__assay_session=another.session"), token)).toBe(false);
    expect(isValidCsrfToken(request(SESSION), token.slice(0, -1))).toBe(false);
    expect(isValidCsrfToken(request(SESSION), null)).toBe(false);
    expect(isValidCsrfToken(request(""), token)).toBe(false);
  });

  it("gives a signed-out visitor a random cookie to bind it to, and follows the session once there is one", () => {
    const first = csrfToken(new Request("http://localhost/login"));
    const second = csrfToken(new Request("http://localhost/login"));
    expect(first.setCookie).toMatch(/^__assay_csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
    expect(first.token).not.toBe(second.token);
    const anonymous = first.setCookie!.split(";")[0];
    const returning = new Request("http://localhost/", { headers: { Cookie: anonymous } });
    expect(csrfToken(returning)).toEqual({ token: first.token, setCookie: null });
    expect(tokenOf(`${anonymous}; ${SESSION}`)).toBe(tokenOf(SESSION));
    expect(tokenOf(SESSION)).not.toBe(first.token);
  });

  it("depends on the server's secret", () => {
    const before = tokenOf(SESSION);
    process.env.SESSION_SECRET = "another-secret-that-is-long-enough-to-sign";
    try {
      expect(tokenOf(SESSION)).not.toBe(before);
    } finally {
      process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
    }
  });
});

describe("guardActions", () => {
  it("refuses a form without the token or with a wrong one, and never calls the action", async () => {
    const { calls, call } = guardedRoute();
    const otherSession = tokenOf("__assay_session=other");
    for (const body of [
      form({ name: "x" }),
      form({ name: "x", csrf: "forged" }),
      form({ name: "x", csrf: otherSession }),
    ]) {
      const response = await call(post(body));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: EXPIRED });
    }
    const json = await call(
      post(JSON.stringify({ csrf: tokenOf(SESSION) }), { "Content-Type": "application/json" }),
    );
    expect(json.status).toBe(403);
    expect(calls).toHaveLength(0);
  });

  it("refuses a field with a NUL character with a 400 naming it, and never calls the action", async () => {
    const { calls, call } = guardedRoute();
    const response = await call(post(form({ name: "Ada\u0000", csrf: tokenOf(SESSION) })));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      'The field "name" contains a NUL character, which cannot be stored; nothing was saved.',
    );
    expect(calls).toHaveLength(0);
  });

  it("hands the action the same body, url-encoded or multipart with a file", async () => {
    const { calls, call } = guardedRoute();
    const encoded = await call(post(form({ name: "Ada", csrf: tokenOf(SESSION) })));
    expect(encoded.status).toBe(200);
    expect(Object.fromEntries(await calls[0].formData())).toEqual({ name: "Ada", csrf: tokenOf(SESSION) });

    const multipart = new FormData();
    multipart.set("csrf", tokenOf(SESSION));
    multipart.set("file", new File(["id,title\nP-1,Cryo-EM\n"], "proposals.csv", { type: "text/csv" }));
    expect((await call(post(multipart))).status).toBe(200);
    const file = (await calls[1].formData()).get("file") as File;
    expect([file.name, await file.text()]).toEqual(["proposals.csv", "id,title\nP-1,Cryo-EM\n"]);
    expect(calls[1].url).toBe("http://localhost/form");
  });

  it("refuses a body over the limit with a 413 before parsing it: declared by Content-Length", async () => {
    const { calls, call } = guardedRoute();
    const { stream, state } = slowBody(8 * 1024 * 1024);
    const declared = {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(8 * 1024 * 1024),
    };
    const response = await call(post(stream, declared));
    expect(response.status).toBe(413);
    const message = "This form is larger than 1 MB, the most this page accepts; nothing was saved.";
    expect(await response.json()).toEqual({ message });
    expect(state.produced).toBeLessThan(256 * 1024);
    expect(calls).toHaveLength(0);
  });

  it("counts a chunked body while reading it and stops keeping it past the limit", async () => {
    const { calls, call } = guardedRoute();
    const { stream, state } = slowBody(8 * 1024 * 1024);
    const response = await call(post(stream, { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(response.status).toBe(413);
    // Read up to the limit and a chunk or two more, not the 8 MB (the rest is drained in the background).
    expect(state.produced).toBeLessThan(FORM_BODY_LIMIT + 256 * 1024);
    expect(calls).toHaveLength(0);
  });

  it("takes a route's own bodyLimit and sentence", async () => {
    const { calls, call } = guardedRoute({ bodyLimit: 10, bodyLimitMessage: "Too big for this page." });
    const response = await call(post(form({ csrf: tokenOf(SESSION), note: "more than ten bytes" })));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "Too big for this page." });
    expect(calls).toHaveLength(0);
  });

  it("runs the route's beforeBody first: a refusal there keeps nothing of the body, and drains it", async () => {
    const order: string[] = [];
    const { calls, call } = guardedRoute({
      beforeBody: () => {
        order.push("beforeBody");
        throw new Response("Slow down", { status: 429 });
      },
    });
    const { stream, state } = slowBody(2 * 1024 * 1024);
    const response = await call(post(stream, { "Content-Type": "application/x-www-form-urlencoded" }));
    expect([response.status, order]).toEqual([429, ["beforeBody"]]);
    expect(calls).toHaveLength(0);
    // Left unread, a large upload would stall the connection after the answer: it is read and dropped.
    await state.ended;
  });

  it("lets a key-authenticated API call through (under /api/, no cookie), not one with a cookie", async () => {
    const { calls, call } = guardedRoute();
    const api = (cookie: Record<string, string>) =>
      new Request("http://localhost/api/events", {
        method: "POST",
        body: JSON.stringify({ events: [] }),
        headers: { Authorization: "Bearer key", "Content-Type": "application/json", ...cookie },
      });
    expect((await call(api({}))).status).toBe(200);
    expect(await calls[0].json()).toEqual({ events: [] });
    expect((await call(api({ Cookie: SESSION }))).status).toBe(403);
    expect(calls).toHaveLength(1);
  });
});
