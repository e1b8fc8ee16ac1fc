import { asc, eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { auditLog, sessions, users } from "../../db/schema";
import { createUser, type PublicUser } from "../../db/accounts/users";

/** The "Sessions" panel of an admin's user page: listing a user's sessions and ending them, through the route. */
let t: TestDatabase;
let route: typeof import("./admin.users.$userId");
let auth: typeof import("../security/auth.server");
let admin: PublicUser;
let adminCookie = "";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  admin = await createUser(t.db, "cli", {
    email: "ada@test.local",
    name: "Ada Admin",
    roles: ["admin"],
    password: "long-enough-1",
  });
  adminCookie = await createSessionCookie(t.db, admin.id);
  [route, auth] = await Promise.all([import("./admin.users.$userId"), import("../security/auth.server")]);
});
afterAll(() => t.drop());

const context = { cspNonce: "", ip: "127.0.0.1" };
const userOf = (cookie: string) =>
  auth.getOptionalUser(new Request("http://localhost/", { headers: { Cookie: cookie } }));

async function load(userId: number) {
  const request = new Request(`http://localhost/admin/users/${userId}`, { headers: { Cookie: adminCookie } });
  return (await route.loader({ request, params: { userId: String(userId) }, context })) as Response;
}

async function post(userId: number, fields: Record<string, string>) {
  const request = new Request(`http://localhost/admin/users/${userId}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return (await route.action({ request, params: { userId: String(userId) }, context })) as Response;
}

let n = 0;
async function userWithSessions(count: number) {
  const user = await createUser(t.db, admin, {
    email: `u${++n}@test.local`,
    name: `User ${n}`,
    roles: ["expert"],
    password: "long-enough-1",
  });
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    cookies.push(
      await createSessionCookie(t.db, user.id, {
        userAgent: `Browser ${i}`,
        ip: `192.0.2.${i + 1}`,
        now: new Date(Date.now() - (count - i) * 1000),
      }),
    );
  }
  return { user, cookies };
}

type Listed = {
  handle: string;
  createdAt: string;
  lastSeenAt: string;
  endsAt: string;
  userAgent: string;
  ip: string;
};

describe("an admin's Sessions panel", () => {
  it("lists a user's sessions, newest first, with no id hash in the page's data", async () => {
    const { user } = await userWithSessions(2);
    const response = await load(user.id);
    const text = await response.text();
    const listed = JSON.parse(text).sessions as Listed[];
    expect(listed.map((s) => [s.userAgent, s.ip])).toEqual([
      ["Browser 1", "192.0.2.2"],
      ["Browser 0", "192.0.2.1"],
    ]);
    for (const s of listed) expect(s.handle).toMatch(/^[0-9a-f]{8}$/);
    for (const { idHash } of await t.db.select({ idHash: sessions.idHash }).from(sessions))
      expect(text).not.toContain(idHash.slice(0, 9));
  });

  it("ends one session: that browser is signed out, the other stays, and the audit log names the admin", async () => {
    const { user, cookies } = await userWithSessions(2);
    const [newest] = (await (await load(user.id)).json()).sessions as Listed[];
    const response = await post(user.id, { intent: "end-session", session: newest.handle, confirmed: "yes" });
    expect(await response.json()).toMatchObject({
      done: `Session ${newest.handle} ended: that browser must sign in again.`,
    });
    expect(await userOf(cookies[1])).toBeNull();
    expect((await userOf(cookies[0]))?.id).toBe(user.id);
    const again = await post(user.id, { intent: "end-session", session: newest.handle, confirmed: "yes" });
    expect(await again.json()).toMatchObject({ done: `Session ${newest.handle} had already ended.` });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${user.id}`))
      .orderBy(asc(auditLog.id));
    expect(entries.map((e) => [e.action, e.actorLabel, e.detail])).toEqual([
      [
        "user.create",
        "Ada Admin <ada@test.local>",
        { email: user.email, name: user.name, roles: ["expert"], subjectIds: [] },
      ],
      ["session.end", "Ada Admin <ada@test.local>", { session: newest.handle }],
    ]);
  });

  it("ends all of a user's sessions and leaves everyone else's", async () => {
    const { user, cookies } = await userWithSessions(3);
    const bystander = await userWithSessions(1);
    const response = await post(user.id, { intent: "end-all-sessions", confirmed: "yes" });
    expect(await response.json()).toMatchObject({ done: `Ended 3 sessions of ${user.name}.` });
    for (const cookie of cookies) expect(await userOf(cookie)).toBeNull();
    expect((await userOf(bystander.cookies[0]))?.id).toBe(bystander.user.id);
    expect((await (await load(user.id)).json()).sessions).toEqual([]);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, "session.end_all"));
    expect(entry).toMatchObject({
      actorId: admin.id,
      target: `user:${user.id}`,
      detail: { sessionsEnded: 3 },
    });
  });

  it("refuses a malformed session handle with a 400 and a sentence, ending nothing", async () => {
    const { user, cookies } = await userWithSessions(1);
    const response = await post(user.id, { intent: "end-session", session: "%", confirmed: "yes" });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("A session is named by 8 hex characters");
    expect((await userOf(cookies[0]))?.id).toBe(user.id);
  });

  it("signs a user out everywhere when the admin sets a new password", async () => {
    const { user, cookies } = await userWithSessions(1);
    const response = await post(user.id, { intent: "password", password: "brand-new-password-3" });
    expect(await response.json()).toMatchObject({
      done: `New password set. ${user.name} is signed out everywhere.`,
    });
    expect(await userOf(cookies[0])).toBeNull();
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, "user.password"));
    expect(entry).toMatchObject({
      actorId: admin.id,
      target: `user:${user.id}`,
      detail: { sessionsEnded: 1 },
    });
  });
});

describe("deactivating and ending sessions without a script", () => {
  const isActive = async (id: number) =>
    (await t.db.select({ active: users.active }).from(users).where(eq(users.id, id)))[0].active;
  const audited = async (id: number) =>
    (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `user:${id}`))
    ).map((e) => e.action);

  it("answers a post without confirmation with the question, ending no session and deactivating no one", async () => {
    const { user, cookies } = await userWithSessions(2);
    const [newest] = (await (await load(user.id)).json()).sessions as Listed[];
    const before = await audited(user.id);
    for (const [fields, sentence] of [
      [{ intent: "deactivate" }, "Confirm deactivating the user."],
      [{ intent: "end-session", session: newest.handle }, "Confirm ending the session."],
      [{ intent: "end-all-sessions" }, "Confirm ending all sessions."],
      [{ intent: "end-all-sessions", confirmed: "no" }, "Confirm ending all sessions."],
    ] as const) {
      const response = await post(user.id, fields);
      expect(response.status).toBe(400);
      const body = await response.json();
      // The page reopens the dialog of this very action from the answer: its intent, the field and the row.
      expect(body.intent).toBe(fields.intent);
      expect(body.result.error.confirmed).toEqual([sentence]);
      expect(body.result.initialValue).toMatchObject(fields);
      expect(body.done).toBeNull();
    }
    expect(await isActive(user.id)).toBe(true);
    for (const cookie of cookies) expect((await userOf(cookie))?.id).toBe(user.id);
    expect(await audited(user.id)).toEqual(before);
  });

  it("deactivates once confirmed: the user is signed out and the audit log records it", async () => {
    const { user, cookies } = await userWithSessions(1);
    const response = await post(user.id, { intent: "deactivate", confirmed: "yes" });
    expect(await response.json()).toMatchObject({ done: `${user.name} is deactivated and signed out.` });
    expect(await isActive(user.id)).toBe(false);
    expect(await userOf(cookies[0])).toBeNull();
    expect(await audited(user.id)).toContain("user.deactivate");
  });
});

describe("an admin's roles form", () => {
  it("saves any set of roles, and refuses none or an unknown one with a sentence, writing nothing", async () => {
    const { user, cookies } = await userWithSessions(1);
    const send = async (roles: string[]) => {
      const body = new URLSearchParams({ intent: "update", name: user.name });
      for (const role of roles) body.append("roles", role);
      const request = new Request(`http://localhost/admin/users/${user.id}`, {
        method: "POST",
        body,
        headers: { Cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
      });
      return (await route.action({ request, params: { userId: String(user.id) }, context })) as Response;
    };
    const rolesNow = async () =>
      (await t.db.select({ roles: users.roles }).from(users).where(eq(users.id, user.id)))[0].roles;
    for (const [roles, sentence] of [
      [[], "Choose at least one role"],
      [["expert", "owner"], "Choose roles from: admin, analyst, expert, convener"],
    ] as const) {
      const refused = await send([...roles]);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain(sentence);
      expect(await rolesNow()).toEqual(["expert"]);
      expect(await userOf(cookies[0])).not.toBeNull();
    }
    const saved = await send(["convener", "expert", "expert"]);
    expect(await saved.json()).toMatchObject({
      done: `Saved. ${user.name} is signed out and signs in again as expert and convener.`,
    });
    expect(await rolesNow()).toEqual(["expert", "convener"]);
    expect(await userOf(cookies[0])).toBeNull();
  });
});
