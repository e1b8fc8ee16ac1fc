/// <reference types="vite/client" />
import type { ActionFunction, LoaderFunction } from "@remix-run/node";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { createUser } from "../../db/accounts/users";
import { roles, type Role } from "../../scripts/inputs/roles";

/**
 * Every loader and action of a role's pages checks the role itself: found by file name, so a new
 * route cannot forget its guard without this test failing. A person holds any set of roles, so every
 * one of the 15 sets is tried: a set holding one of the page's roles passes, any other gets a 403.
 */
const modules = import.meta.glob<{ loader?: LoaderFunction; action?: ActionFunction }>(
  "./{admin,analyst,expert,convener}.*.tsx",
  { eager: true },
);
const allowedFor = (file: string): Role[] => {
  const prefix = file.replace("./", "").split(".")[0] as Role;
  return prefix === "analyst" ? ["analyst", "admin"] : [prefix];
};

/** Every non-empty set of roles, in the one order roles are shown. */
const roleSets: Role[][] = Array.from({ length: 2 ** roles.length - 1 }, (_, i) =>
  roles.filter((_role, bit) => (i + 1) & (1 << bit)),
);
const setName = (set: readonly Role[]) => set.join("+");

let t: TestDatabase;
const cookies = {} as Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  for (const set of roleSets) {
    const user = await createUser(t.db, "cli", {
      email: `${setName(set)}@test.local`,
      name: setName(set),
      roles: set,
      password: "long-enough-1",
    });
    cookies[setName(set)] = await createSessionCookie(t.db, user.id);
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

it("finds the role routes and every set of roles", () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
  expect(roleSets.map(setName)).toContain("admin+analyst+expert+convener");
  expect(new Set(roleSets.map(setName)).size).toBe(15);
});

describe.each(files)("%s", (file) => {
  const mod = modules[file];
  const handlers = [
    ["loader", mod.loader, "GET"],
    ["action", mod.action, "POST"],
  ].filter(([, fn]) => fn) as [string, LoaderFunction, string][];

  it.each(handlers)("%s answers 403 to every set of roles without its own", async (_name, fn, method) => {
    for (const set of roleSets.filter((s) => !s.some((r) => allowedFor(file).includes(r)))) {
      const result = await outcome(fn, method, cookies[setName(set)]);
      expect(result === "passed" ? "passed" : result.status, `${setName(set)} on ${file}`).toBe(403);
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

  it.each(handlers)("%s lets every set holding an allowed role through", async (_name, fn, method) => {
    for (const set of roleSets.filter((s) => s.some((r) => allowedFor(file).includes(r)))) {
      const result = await outcome(fn, method, cookies[setName(set)]);
      // A data-level 403 (say, a proposal not assigned to this convener) is fine; the role guard's is not.
      if (result !== "passed" && result.status === 403)
        expect((await result.json()).message, `${setName(set)} on ${file}`).not.toMatch(
          /This page is for the/,
        );
    }
  });
});
