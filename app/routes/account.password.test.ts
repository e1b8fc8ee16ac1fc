import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { createUser, setUserPassword, WeakPasswordError } from "../../db/accounts/users";
import { verifyPassword } from "../../db/accounts/password";
import { createUserSchema } from "../../scripts/inputs/users";
import { answerErrors } from "../forms/forms";

/**
 * Passwords: at least 12 characters and not a common one, and a person's own page to change theirs
 * (the current password required), which ends their other sessions; a seeded account whose password
 * must change is sent there before anything else.
 */
let t: TestDatabase;
let route: typeof import("./account.password");
let auth: typeof import("../security/auth.server");
let expertPage: typeof import("./expert._index");
let n = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  [route, auth, expertPage] = await Promise.all([
    import("./account.password"),
    import("../security/auth.server"),
    import("./expert._index"),
  ]);
});
afterAll(() => t.drop());

const newUser = () =>
  createUser(t.db, "cli", {
    email: `own${++n}@test.local`,
    name: `Own ${n}`,
    roles: ["expert", "analyst"],
    password: "long-enough-1",
  });

const hashOf = async (id: number) =>
  (await t.db.execute<{ h: string }>(sql`select password_hash h from users where id = ${id}`))[0].h;

async function post(cookie: string, fields: Record<string, string>) {
  const request = new Request("http://localhost/account/password", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
  try {
    return (await route.action({ request, params: {}, context: { cspNonce: "", ip: "" } })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const signedIn = (cookie: string) =>
  auth.getOptionalUser(new Request("http://localhost/", { headers: { Cookie: cookie } }));

describe("the password rule", () => {
  it("asks for 12 characters and refuses common passwords and ones made of the person's name or email", async () => {
    const short = createUserSchema.safeParse({
      name: "A",
      email: "a@test.local",
      roles: ["expert"],
      password: "eleven-char",
    });
    expect(short.error?.issues.map((i) => i.message)).toEqual(["Use at least 12 characters"]);
    for (const password of ["password1234", "qwertyuiop12", "own-weak@test.local"]) {
      await expect(
        createUser(t.db, "cli", { email: "own-weak@test.local", name: "Weak", roles: ["expert"], password }),
      ).rejects.toBeInstanceOf(WeakPasswordError);
    }
    expect(await t.db.execute(sql`select 1 from users where email = 'own-weak@test.local'`)).toHaveLength(0);
    const user = await newUser();
    const before = await hashOf(user.id);
    await expect(setUserPassword(t.db, "cli", user.id, "iloveyou1234")).rejects.toBeInstanceOf(
      WeakPasswordError,
    );
    expect(await hashOf(user.id)).toBe(before);
  });
});

describe("changing one's own password", () => {
  it("needs the current password, refuses a weak new one, and writes nothing either time", async () => {
    const user = await newUser();
    const cookie = await createSessionCookie(t.db, user.id);
    const before = await hashOf(user.id);
    const wrong = await post(cookie, {
      current: "not-my-password",
      password: "fresh-garden-lamp-7",
      repeat: "fresh-garden-lamp-7",
    });
    expect(wrong.status).toBe(400);
    expect(answerErrors(await wrong.json())).toEqual(["The current password is wrong."]);
    const weak = await post(cookie, {
      current: "long-enough-1",
      password: "password1234",
      repeat: "password1234",
    });
    expect(weak.status).toBe(400);
    expect(answerErrors(await weak.json())[0]).toMatch(/^This password is too easy to guess/);
    const differ = await post(cookie, {
      current: "long-enough-1",
      password: "fresh-garden-lamp-7",
      repeat: "fresh-garden-lamp-8",
    });
    expect(answerErrors(await differ.json())).toEqual(["The two new passwords differ"]);
    expect(await hashOf(user.id)).toBe(before);
  });

  it("changes it, ends every other session of the person and keeps this one", async () => {
    const [user, someone] = [await newUser(), await newUser()];
    const [here, elsewhere, theirs] = [
      await createSessionCookie(t.db, user.id),
      await createSessionCookie(t.db, user.id, { userAgent: "another browser" }),
      await createSessionCookie(t.db, someone.id),
    ];
    const changed = await post(here, {
      current: "long-enough-1",
      password: "fresh-garden-lamp-7",
      repeat: "fresh-garden-lamp-7",
    });
    expect(changed.status).toBe(200);
    const body = await changed.json();
    expect(body.done).toBe(
      "Your password is changed. Every other session of yours has ended; this one goes on.",
    );
    expect(JSON.stringify(body)).not.toContain("fresh-garden-lamp-7");
    expect((await signedIn(here))?.id).toBe(user.id);
    expect(await signedIn(elsewhere)).toBeNull();
    expect((await signedIn(theirs))?.id).toBe(someone.id);
    expect(await verifyPassword("fresh-garden-lamp-7", await hashOf(user.id))).toBe(true);
    const [entry] = await t.db.execute<{ actor_id: number; detail: unknown }>(
      sql`select actor_id, detail from audit_log where action = 'user.password-change' and target = ${`user:${user.id}`}`,
    );
    expect(entry).toEqual({ actor_id: user.id, detail: { otherSessionsEnded: 1 } });
  });

  it("sends a person whose password must change to this page from every other, until it is changed", async () => {
    const user = await newUser();
    await t.db.execute(sql`update users set must_change_password = true where id = ${user.id}`);
    const cookie = await createSessionCookie(t.db, user.id);
    const visit = async () => {
      try {
        return (await expertPage.loader({
          request: new Request("http://localhost/expert", { headers: { Cookie: cookie } }),
          params: {},
          context: { cspNonce: "", ip: "" },
        })) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };
    const sent = await visit();
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/account/password");
    const page = await route.loader({
      request: new Request("http://localhost/account/password", { headers: { Cookie: cookie } }),
      params: {},
      context: { cspNonce: "", ip: "" },
    });
    expect(await page.json()).toEqual({ mustChange: true, home: "/analyst" });
    await post(cookie, {
      current: "long-enough-1",
      password: "fresh-garden-lamp-7",
      repeat: "fresh-garden-lamp-7",
    });
    expect((await visit()).status).toBe(200);
  });
});
