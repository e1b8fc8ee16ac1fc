import type { Role } from "../../scripts/inputs/roles";
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { auditLog, sessions } from "../schema";
import {
  createSession,
  endAllUserSessions,
  endUserSession,
  findSessionUser,
  listUserSessions,
  pruneExpiredSessions,
  sessionHandle,
  TOUCH_INTERVAL_MS,
} from "./sessions";
import { createUser, setUserActive, setUserPassword, updateUser, type PublicUser } from "./users";

const HOUR = 3_600_000;
const lifetime = { idleMs: 8 * HOUR, maxMs: 7 * 24 * HOUR };
const t0 = new Date("2026-03-02T09:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

let t: TestDatabase;
let admin: PublicUser;
let n = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  admin = await createUser(t.db, "cli", {
    email: "root@test.local",
    name: "Root",
    roles: ["admin"],
    password: "long-enough-1",
  });
});
afterAll(() => t.drop());

async function newUser(role: Role = "expert") {
  n++;
  return createUser(t.db, admin, {
    email: `user${n}@test.local`,
    name: `User ${n}`,
    roles: [role],
    password: "long-enough-1",
  });
}

/** A session of `userId` started at `when`; returns its id hash (what the cookie's id hashes to). */
async function session(userId: number, when = t0) {
  const idHash = createHash("sha256").update(`session-${++n}`).digest("hex");
  await createSession(t.db, { idHash, userId, userAgent: "Firefox", ip: "192.0.2.7" }, lifetime, when);
  return idHash;
}

const rowOf = async (idHash: string) =>
  (await t.db.select().from(sessions).where(eq(sessions.idHash, idHash)))[0];
const auditOf = (target: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(asc(auditLog.id));

describe("session lifetime (controlled clock)", () => {
  it("ends a session unused for the idle time, and moves the idle end forward as it is used", async () => {
    const user = await newUser();
    const id = await session(user.id);
    expect((await findSessionUser(t.db, id, lifetime, at(8 * HOUR - 1)))?.id).toBe(user.id);
    // That use moved the idle end to 16 h after sign-in: at 15 h it still works, 8 h after that use it does not.
    expect((await findSessionUser(t.db, id, lifetime, at(15 * HOUR)))?.id).toBe(user.id);
    expect(await findSessionUser(t.db, id, lifetime, at(23 * HOUR + 1))).toBeUndefined();

    const unused = await session(user.id);
    expect(await findSessionUser(t.db, unused, lifetime, at(8 * HOUR))).toBeUndefined();
  });

  it("ends a session at the absolute limit however much it is used", async () => {
    const user = await newUser();
    const id = await session(user.id);
    for (let h = 4; h < 7 * 24; h += 4)
      expect((await findSessionUser(t.db, id, lifetime, at(h * HOUR)))?.id).toBe(user.id);
    expect(await findSessionUser(t.db, id, lifetime, at(7 * 24 * HOUR))).toBeUndefined();
    // The idle end never passes the absolute end.
    expect((await rowOf(id)).idleExpiresAt.getTime()).toBeLessThanOrEqual(
      (await rowOf(id)).expiresAt.getTime(),
    );
  });

  it("writes last-seen at most once a minute", async () => {
    const user = await newUser();
    const id = await session(user.id);
    await findSessionUser(t.db, id, lifetime, at(TOUCH_INTERVAL_MS - 1));
    expect((await rowOf(id)).lastSeenAt).toEqual(t0);
    await findSessionUser(t.db, id, lifetime, at(TOUCH_INTERVAL_MS));
    expect((await rowOf(id)).lastSeenAt).toEqual(at(TOUCH_INTERVAL_MS));
    expect((await rowOf(id)).idleExpiresAt).toEqual(at(TOUCH_INTERVAL_MS + 8 * HOUR));
    await findSessionUser(t.db, id, lifetime, at(TOUCH_INTERVAL_MS + 30_000));
    expect((await rowOf(id)).lastSeenAt).toEqual(at(TOUCH_INTERVAL_MS));
  });

  it("prunes expired sessions and keeps live ones", async () => {
    const user = await newUser();
    const idle = await session(user.id, at(-9 * HOUR));
    const old = await session(user.id, at(-8 * 24 * HOUR));
    const live = await session(user.id);
    expect(await pruneExpiredSessions(t.db, t0)).toBeGreaterThanOrEqual(2);
    expect(await rowOf(idle)).toBeUndefined();
    expect(await rowOf(old)).toBeUndefined();
    expect(await rowOf(live)).toBeDefined();
  });
});

describe("changes to a user end their sessions", () => {
  it("a new password ends every session of that user only, and says so in the audit log", async () => {
    const [user, other] = [await newUser(), await newUser()];
    const [a, b, c] = [await session(user.id), await session(user.id), await session(other.id)];
    await setUserPassword(t.db, admin, user.id, "another-password-2");
    expect(await rowOf(a)).toBeUndefined();
    expect(await rowOf(b)).toBeUndefined();
    expect(await rowOf(c)).toBeDefined();
    const [entry] = await auditOf(`user:${user.id}`).then((rows) =>
      rows.filter((r) => r.action === "user.password"),
    );
    expect(entry).toMatchObject({
      actorId: admin.id,
      actorLabel: "Root <root@test.local>",
      detail: { sessionsEnded: 2 },
    });
    expect(JSON.stringify(entry.detail)).not.toMatch(/another-password|scrypt/);
  });

  it("a role change ends the sessions; a name or subject change alone does not", async () => {
    const user = await newUser("expert");
    const id = await session(user.id);
    await updateUser(t.db, admin, user.id, { roles: ["expert"], name: "Renamed", subjectIds: [] });
    expect(await rowOf(id)).toBeDefined();
    await updateUser(t.db, admin, user.id, { roles: ["analyst"], name: "Renamed", subjectIds: [] });
    expect(await rowOf(id)).toBeUndefined();
    const updates = (await auditOf(`user:${user.id}`)).filter((r) => r.action === "user.update");
    expect(updates.map((r) => r.detail)).toEqual([
      {
        name: { from: user.name, to: "Renamed" },
        roles: { from: ["expert"], to: ["expert"] },
        subjectIds: [],
        sessionsEnded: 0,
      },
      {
        name: { from: "Renamed", to: "Renamed" },
        roles: { from: ["expert"], to: ["analyst"] },
        subjectIds: [],
        sessionsEnded: 1,
      },
    ]);
  });

  it("deactivation ends the sessions and reactivation does not bring them back", async () => {
    const user = await newUser();
    const id = await session(user.id);
    await setUserActive(t.db, admin, user.id, false);
    expect(await rowOf(id)).toBeUndefined();
    await setUserActive(t.db, admin, user.id, true);
    expect(await findSessionUser(t.db, id, lifetime, at(1000))).toBeUndefined();
    const actions = (await auditOf(`user:${user.id}`)).map((r) => [r.action, r.detail]);
    expect(actions).toEqual([
      ["user.create", { email: user.email, name: user.name, roles: ["expert"], subjectIds: [] }],
      ["user.deactivate", { sessionsEnded: 1 }],
      ["user.activate", {}],
    ]);
  });

  it("records the CLI as the actor of a user it creates", async () => {
    const [entry] = await auditOf(`user:${admin.id}`);
    expect(entry).toMatchObject({
      action: "user.create",
      actorId: null,
      actorLabel: "cli",
      detail: { email: "root@test.local", roles: ["admin"] },
    });
  });
});

describe("an admin's view of a user's sessions", () => {
  it("lists live sessions by a short handle, never the id hash", async () => {
    const user = await newUser();
    const older = await session(user.id, at(-HOUR));
    const newer = await session(user.id);
    await session(user.id, at(-9 * HOUR)); // idle too long: not listed
    const listed = await listUserSessions(t.db, user.id, t0);
    expect(listed).toEqual([
      {
        handle: sessionHandle(newer),
        createdAt: t0,
        lastSeenAt: t0,
        endsAt: at(8 * HOUR),
        userAgent: "Firefox",
        ip: "192.0.2.7",
      },
      {
        handle: sessionHandle(older),
        createdAt: at(-HOUR),
        lastSeenAt: at(-HOUR),
        endsAt: at(7 * HOUR),
        userAgent: "Firefox",
        ip: "192.0.2.7",
      },
    ]);
    expect(sessionHandle(newer)).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(listed)).not.toContain(newer.slice(0, 12));
  });

  it("ends one session, or all, of that user only, with audit entries", async () => {
    const [user, other] = [await newUser(), await newUser()];
    const [a, b, c] = [await session(user.id), await session(user.id), await session(user.id)];
    const foreign = await session(other.id);
    // A handle of another user's session does nothing here.
    expect(await endUserSession(t.db, admin, user.id, sessionHandle(foreign))).toBe(0);
    expect(await rowOf(foreign)).toBeDefined();
    expect(await endUserSession(t.db, admin, user.id, sessionHandle(a))).toBe(1);
    expect(await rowOf(a)).toBeUndefined();
    expect(await rowOf(b)).toBeDefined();
    expect(await endAllUserSessions(t.db, admin, user.id)).toBe(2);
    expect(await rowOf(c)).toBeUndefined();
    expect(await rowOf(foreign)).toBeDefined();
    const entries = (await auditOf(`user:${user.id}`)).filter((r) => r.action.startsWith("session."));
    expect(entries.map((r) => [r.action, r.actorId, r.detail])).toEqual([
      ["session.end", admin.id, { session: sessionHandle(a) }],
      ["session.end_all", admin.id, { sessionsEnded: 2 }],
    ]);
  });
});
