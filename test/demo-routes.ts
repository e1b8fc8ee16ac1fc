import { createTestDatabase } from "./database";
import { createSessionCookie } from "./session-cookie";
import { createUser } from "../db/accounts/users";
import { seedDemo } from "../scripts/demo/seed";
import type { Role } from "../scripts/inputs/roles";

/**
 * A fresh database holding the demo (`seed` makes it this test's own) and one signed-in user per role,
 * for route tests that call loaders as those users: `cookies[role]` is the Cookie header.
 */
export async function demoWithUsers(
  seed: string,
  roles: readonly Role[],
  size: { proposals: number; candidates: number } = { proposals: 30, candidates: 300 },
) {
  const t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { ...size, seed });
  const cookies: Partial<Record<Role, string>> = {};
  for (const role of roles) {
    const user = await createUser(t.db, "cli", {
      email: `${role}@${seed}.test`,
      name: role,
      roles: [role],
      password: "long-enough-1",
    });
    cookies[role] = await createSessionCookie(t.db, user.id);
  }
  return { t, cookies: cookies as Record<Role, string> };
}

/** A loader's or action's arguments for a GET of `path` by the holder of `cookie`. */
export function routeArgs(path: string, cookie: string, params: Record<string, string> = {}) {
  return {
    request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
    params,
    context: { cspNonce: "", ip: "127.0.0.1" },
  };
}

/** What a route answered, the Response it threw included (a refused role is a thrown 403). */
export async function answered(run: Promise<Response>) {
  try {
    return await run;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
