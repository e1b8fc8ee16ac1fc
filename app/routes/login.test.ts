import type { Role } from "../../scripts/inputs/roles";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { sessions } from "../../db/schema";
import { createUser, setUserActive, setUserPassword, updateUser } from "../../db/accounts/users";

/** Sign-in, sign-out and the session cookie, through the routes' own actions against a real database. */
let t: TestDatabase;
let login: typeof import("./login");
let logout: typeof import("./logout");
let auth: typeof import("../security/auth.server");
let n = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  [login, logout, auth] = await Promise.all([
    import("./login"),
    import("./logout"),
    import("../security/auth.server"),
  ]);
});
afterAll(() => t.drop());

const PASSWORD = "long-enough-1";
async function newUser(role: Role = "expert") {
  n++;
  return createUser(t.db, "cli", {
    email: `person${n}@test.local`,
    name: `Person ${n}`,
    roles: [role],
    password: PASSWORD,
  });
}

/** Runs an action as the server would; a thrown Response is returned like a returned one. */
async function run(
  action: (args: never) => Promise<Response>,
  request: Request,
  ip: string,
): Promise<Response> {
  try {
    return await action({ request, params: {}, context: { cspNonce: "", ip } } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function signInRequest(fields: Record<string, string>, cookie?: string) {
  return new Request("http://localhost/login", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "User-Agent": "Vitest Browser",
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });
}

const signIn = (
  email: string,
  password: string,
  ip: string,
  extra: { cookie?: string; redirectTo?: string } = {},
) =>
  run(
    login.action,
    signInRequest(
      { email, password, ...(extra.redirectTo !== undefined ? { redirectTo: extra.redirectTo } : {}) },
      extra.cookie,
    ),
    ip,
  );

const cookieOf = (response: Response) => response.headers.get("Set-Cookie")!.split(";")[0];
const userOf = (cookie: string) =>
  auth.getOptionalUser(new Request("http://localhost/", { headers: { Cookie: cookie } }));
/** The session id inside the signed cookie (Remix encodes the value as base64 JSON, then appends the signature). */
const idOf = (cookie: string) =>
  JSON.parse(
    Buffer.from(decodeURIComponent(cookie.split("=")[1]).replace(/\.[^.]*$/, ""), "base64").toString(),
  );
const hashOf = (id: string) => createHash("sha256").update(id).digest("hex");
const sessionRows = (userId: number) => t.db.select().from(sessions).where(eq(sessions.userId, userId));

describe("sign-in", () => {
  it("sets an httpOnly, lax, site-wide cookie holding only a 32-byte random id, kept hashed in the table", async () => {
    const user = await newUser();
    const response = await signIn(user.email, PASSWORD, "192.0.2.1");
    expect(response.status).toBe(302);
    const header = response.headers.get("Set-Cookie")!;
    expect(header).toMatch(/^__assay_session=/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).toMatch(/; Max-Age=604800/);
    const id = idOf(cookieOf(response));
    expect(Buffer.from(id, "base64url")).toHaveLength(32);
    const [row] = await sessionRows(user.id);
    expect(row).toMatchObject({ idHash: hashOf(id), userAgent: "Vitest Browser", ip: "192.0.2.1" });
    expect(JSON.stringify(await t.db.select().from(sessions))).not.toContain(id);
    expect((await userOf(cookieOf(response)))?.id).toBe(user.id);
  });

  it("always makes a new session: a cookie sent at sign-in is discarded and its row deleted (no fixation)", async () => {
    const user = await newUser();
    const planted = await createSessionCookie(t.db, user.id);
    const response = await signIn(user.email, PASSWORD, "192.0.2.2", { cookie: planted });
    const fresh = cookieOf(response);
    expect(idOf(fresh)).not.toBe(idOf(planted));
    expect(await userOf(planted)).toBeNull();
    expect((await userOf(fresh))?.id).toBe(user.id);
    expect((await sessionRows(user.id)).map((r) => r.idHash)).toEqual([hashOf(idOf(fresh))]);
  });

  it("goes to a safe redirectTo and to the role's home for a hostile one, never a 500", async () => {
    const user = await newUser("analyst");
    const cases: [string, string][] = [
      ["/\n/x", "/analyst"],
      ["/\t/evil.example", "/analyst"],
      ["//evil.example", "/analyst"],
      ["https://evil.example", "/analyst"],
      ["/analyst?B=100#x", "/analyst?B=100#x"],
    ];
    for (const [redirectTo, expected] of cases) {
      const response = await signIn(user.email, PASSWORD, "192.0.2.3", { redirectTo });
      expect([response.status, response.headers.get("Location")], JSON.stringify(redirectTo)).toEqual([
        302,
        expected,
      ]);
    }
  });
});

describe("ending sessions", () => {
  it("sign-out deletes the session and clears the cookie", async () => {
    const user = await newUser();
    const cookie = cookieOf(await signIn(user.email, PASSWORD, "192.0.2.4"));
    const other = cookieOf(await signIn(user.email, PASSWORD, "192.0.2.4"));
    const response = await run(
      logout.action,
      new Request("http://localhost/logout", { method: "POST", headers: { Cookie: cookie } }),
      "192.0.2.4",
    );
    expect(response.headers.get("Location")).toBe("/login");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__assay_session=; Max-Age=0;/);
    expect(await userOf(cookie)).toBeNull();
    expect((await userOf(other))?.id).toBe(user.id); // sign-out ends this browser's session only
  });

  it("a password change, a role change and deactivation each end the user's live cookies; reactivation revives none", async () => {
    const user = await newUser();
    const check = async (change: () => Promise<void>) => {
      const cookie = await createSessionCookie(t.db, user.id);
      expect((await userOf(cookie))?.id).toBe(user.id);
      await change();
      return userOf(cookie);
    };
    expect(await check(() => setUserPassword(t.db, "cli", user.id, "a-new-password-2"))).toBeNull();
    expect(
      await check(() =>
        updateUser(t.db, "cli", user.id, { roles: ["convener"], name: user.name, subjectIds: [] }),
      ),
    ).toBeNull();
    const cookie = await createSessionCookie(t.db, user.id);
    await setUserActive(t.db, "cli", user.id, false);
    expect(await userOf(cookie)).toBeNull();
    await setUserActive(t.db, "cli", user.id, true);
    expect(await userOf(cookie)).toBeNull();
  });

  it("a request with an ended session's cookie is sent to sign-in and the cookie is cleared", async () => {
    const user = await newUser();
    const cookie = await createSessionCookie(t.db, user.id);
    await setUserPassword(t.db, "cli", user.id, "a-new-password-2");
    const thrown = await auth
      .requireUser(new Request("http://localhost/expert?x=1", { headers: { Cookie: cookie } }))
      .catch((r: Response) => r);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/login?redirectTo=%2Fexpert%3Fx%3D1");
    expect((thrown as Response).headers.get("Set-Cookie")).toMatch(/^__assay_session=; Max-Age=0;/);
  });
});

describe("throttling failed sign-ins", () => {
  // The delays are read from the clock: tests move it instead of waiting.
  let clock = Date.parse("2030-01-01T00:00:00Z");
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clock += 24 * 3600_000; // a day later: every count from an earlier test is forgotten
    vi.setSystemTime(clock);
  });
  afterEach(() => vi.useRealTimers());
  const wait = (ms: number) => vi.setSystemTime((clock += ms));
  const sentence = async (response: Response) => JSON.stringify(await response.json());

  it("from one address, one account's delay grows with each failure; another address is not delayed", async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++)
      expect((await signIn(user.email, "wrong-password", "198.51.100.1")).status).toBe(401);
    // Past three failures, each costs a delay that doubles: 2 s, 4 s, 8 s ...
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const throttled = await signIn(user.email, PASSWORD, "198.51.100.1");
      expect(throttled.status).toBe(429);
      delays.push(Number(throttled.headers.get("Retry-After")));
      expect(await sentence(throttled)).toContain(
        `Too many failed sign-ins to this account from your network address. Try again in ${delays[i]} second`,
      );
      wait(delays[i] * 1000);
      expect((await signIn(user.email, "wrong-password", "198.51.100.1")).status).toBe(401);
    }
    expect(delays).toEqual([2, 4, 8, 16]);
    expect((await signIn(user.email, PASSWORD, "198.51.100.2")).status).toBe(302);
    // The same address may still sign in to other accounts: the per-address count is higher.
    const other = await newUser();
    expect((await signIn(other.email, PASSWORD, "198.51.100.1")).status).toBe(302);
  });

  it("guessing one account from many addresses is slowed, and its owner still signs in within 30 s", async () => {
    const user = await newUser();
    let checked = 0;
    let refused = 0;
    // 200 guesses from 40 addresses in 48 s, as the probe sent them.
    for (let i = 0; i < 200; i++) {
      const status = (await signIn(user.email, "wrong-password", `192.0.2.${i % 40}`)).status;
      if (status === 401) checked++;
      else if (status === 429) refused++;
      wait(240);
    }
    // Ten free, then 1, 2, 4, 8 and 16 s apart: 15 of the 200 reach the password check (all 200 did before).
    expect(checked).toBe(15);
    expect(refused).toBe(200 - checked);
    const owner = await signIn(user.email, PASSWORD, "203.0.113.200");
    expect(owner.status).toBe(429);
    expect(Number(owner.headers.get("Retry-After"))).toBeLessThanOrEqual(30);
    expect(await sentence(owner)).toContain("Too many failed sign-ins to this account; it is slowed down");
    wait(30_000);
    expect((await signIn(user.email, PASSWORD, "203.0.113.200")).status).toBe(302);
  });

  it("twenty failures from one address across many accounts stop that address before its body is read", async () => {
    const users = await Promise.all([1, 2, 3].map(() => newUser()));
    for (let i = 0; i < 20; i++) {
      const email = i % 4 === 3 ? `nobody${i}@test.local` : users[i % 4].email; // unknown emails count too
      expect((await signIn(email, "wrong-password", "203.0.113.9")).status).toBe(401);
      wait(16_000); // past each (account, address) delay
    }
    expect((await signIn(users[0].email, "wrong-password", "203.0.113.9")).status).toBe(401);
    const request = signInRequest({ email: users[0].email, password: PASSWORD });
    const refused = await run(login.beforeBody as never, request, "203.0.113.9");
    expect(refused.status).toBe(429);
    // Twenty free failures, then 1 s doubling: the 21st costs 2 s.
    expect(Number(refused.headers.get("Retry-After"))).toBe(2);
    expect((await refused.json()).message).toBe(
      "Too many failed sign-ins from your network address. Try again in 2 seconds.",
    );
    expect(request.bodyUsed).toBe(false);
    expect((await signIn(users[0].email, PASSWORD, "203.0.113.9")).status).toBe(429);
    expect((await signIn(users[0].email, PASSWORD, "203.0.113.10")).status).toBe(302);
  });

  it("a success does not reset the address's count, and an IPv6 /64 counts as one address", async () => {
    const [mine, target] = [await newUser(), await newUser()];
    for (let i = 0; i < 19; i++)
      await signIn(`nobody-v6-${i}@test.local`, "wrong-password", `2001:db8:1:1::${i.toString(16)}`);
    expect((await signIn(mine.email, PASSWORD, "2001:db8:1:1::ff")).status).toBe(302);
    expect((await signIn(target.email, "wrong-password", "2001:db8:1:1:aaaa::1")).status).toBe(401);
    expect((await signIn(mine.email, PASSWORD, "2001:db8:1:1::ff")).status).toBe(429);
    expect((await signIn(mine.email, PASSWORD, "2001:db8:1:2::1")).status).toBe(302);
  });

  it("puts every failure in the audit log and the structured log, never the password or a typed email", async () => {
    const user = await newUser();
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "warn")
      .mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await signIn(user.email, "Secret-Guess-1", "198.51.100.77");
      await signIn("Nobody.Here@test.local", "Secret-Guess-2", "198.51.100.77");
      await setUserActive(t.db, "cli", user.id, false);
      await signIn(user.email, PASSWORD, "198.51.100.78");
      await setUserActive(t.db, "cli", user.id, true);
    } finally {
      spy.mockRestore();
    }
    const rows = await t.db.execute<{ actor_label: string; target: string; detail: unknown }>(sql`
      select actor_label, target, detail from audit_log where action = 'user.signin-failed'
      and detail->>'address' like '198.51.100.7%' order by id`);
    expect(rows).toEqual([
      {
        actor_label: "visitor",
        target: `user:${user.id}`,
        detail: { reason: "wrong password", address: "198.51.100.77" },
      },
      { actor_label: "visitor", target: "", detail: { reason: "unknown email", address: "198.51.100.77" } },
      {
        actor_label: "visitor",
        target: `user:${user.id}`,
        detail: { reason: "deactivated", address: "198.51.100.78" },
      },
    ]);
    const failed = lines.map((l) => JSON.parse(l)).filter((l) => l.event === "signin.failed");
    expect(failed.map((l) => [l.reason, l.userId, l.address])).toEqual([
      ["wrong password", user.id, "198.51.100.77"],
      ["unknown email", null, "198.51.100.77"],
      ["deactivated", user.id, "198.51.100.78"],
    ]);
    const written = lines.join("\n") + JSON.stringify(rows);
    for (const secret of ["Secret-Guess", PASSWORD, "nobody.here", user.email])
      expect(written.toLowerCase()).not.toContain(secret.toLowerCase());
  });
});
