/// <reference types="vite/client" />
import type { ActionFunction, LoaderFunction } from "@remix-run/node";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { createUser } from "../../db/accounts/users";
import { roles, type Role } from "../../scripts/inputs/roles";

/**
 * Every loader and action of a role's pages checks the role itself: found by file name, so a new
 * route cannot forget its guard without this test failing.
 */
const modules = import.meta.glob<{ loader?: LoaderFunction; action?: ActionFunction }>(
  "./{admin,analyst,expert,convener}.*.tsx",
  { eager: true },
);
const allowedFor = (file: string): Role[] => {
  const prefix = file.replace("./", "").split(".")[0] as Role;
  return prefix === "analyst" ? ["analyst", "admin"] : [prefix];
};

let t: TestDatabase;
const cookies = {} as Record<Role, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  for (const role of roles) {
    const user = await createUser(t.db, "cli", {
      email: `${role}@test.local`,
      name: role,
      role,
      password: "long-enough-1",
    });
    cookies[role] = await createSessionCookie(t.db, user.id);
  }
});
afterAll(() => t.drop());

async function outcome(
  fn: LoaderFunction | ActionFunction,
  method: string,
  cookie?: string,
): Promise<Response | "passed"> {
  const request = new Request("http://localhost/somewhere?x=1", {
    method,
    headers: cookie ? { Cookie: cookie } : {},
    body: method === "POST" ? new FormData() : undefined,
  });
  try {
    const result = await fn({ request, params: {}, context: { cspNonce: "", ip: "127.0.0.1" } });
    return result instanceof Response && result.status >= 300 ? result : "passed";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    return "passed"; // got past the guard and failed later (e.g. missing params): not an authorization outcome
  }
}

const files = Object.keys(modules);

it("finds the role routes", () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
});

describe.each(files)("%s", (file) => {
  const mod = modules[file];
  const handlers = [
    ["loader", mod.loader, "GET"],
    ["action", mod.action, "POST"],
  ].filter(([, fn]) => fn) as [string, LoaderFunction, string][];

  it.each(handlers)("%s answers 403 to every other role", async (_name, fn, method) => {
    for (const role of roles.filter((r) => !allowedFor(file).includes(r))) {
      const result = await outcome(fn, method, cookies[role]);
      expect(result === "passed" ? "passed" : result.status, `${role} on ${file}`).toBe(403);
    }
  });

  it.each(handlers)("%s sends a signed-out visitor to sign-in and back", async (_name, fn, method) => {
    const result = await outcome(fn, method);
    expect(result).not.toBe("passed");
    const response = result as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/somewhere?x=1")}`,
    );
  });

  it.each(handlers)("%s lets the allowed role through", async (_name, fn, method) => {
    for (const role of allowedFor(file)) {
      const result = await outcome(fn, method, cookies[role]);
      // A data-level 403 (say, a proposal not assigned to this convener) is fine; the role guard's is not.
      if (result !== "passed" && result.status === 403)
        expect((await result.json()).message, `${role} on ${file}`).not.toMatch(/This page is for the/);
    }
  });
});
