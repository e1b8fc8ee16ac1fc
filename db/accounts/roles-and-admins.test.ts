import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { codeMigrations } from "../backup/migrations";
import { createDb } from "../platform/client";
import { createUser, LastAdminError, setUserActive, updateUser, type PublicUser } from "./users";

/**
 * Several roles per person, as the migration gives them to existing users; and the "at least one
 * active admin" rule under concurrency: two admins removing each other at the same moment.
 */
describe("the migration to several roles", () => {
  it("keeps every existing user with the one role they had", async () => {
    const t = await createTestDatabase({ empty: true });
    try {
      const migrations = codeMigrations();
      const before = migrations.findIndex((m) => m.sql.some((s) => s.includes('ADD COLUMN "roles"')));
      expect(before).toBeGreaterThan(0);
      const apply = async (list: typeof migrations) => {
        for (const m of list) for (const statement of m.sql) await t.sql.unsafe(statement);
      };
      await apply(migrations.slice(0, before));
      await t.sql.unsafe(`insert into users (email, name, role, password_hash) values
        ('a@x.org', 'A', 'admin', 'x'), ('b@x.org', 'B', 'analyst', 'x'),
        ('c@x.org', 'C', 'expert', 'x'), ('d@x.org', 'D', 'convener', 'x')`);
      await apply(migrations.slice(before));
      expect(await t.sql`select email, roles::text[] as roles from users order by email`).toEqual([
        { email: "a@x.org", roles: ["admin"] },
        { email: "b@x.org", roles: ["analyst"] },
        { email: "c@x.org", roles: ["expert"] },
        { email: "d@x.org", roles: ["convener"] },
      ]);
      // No one holds no role: the database refuses an empty set.
      await expect(t.sql`update users set roles = '{}' where email = 'a@x.org'`).rejects.toThrow(
        /users_roles_not_empty/,
      );
    } finally {
      await t.drop();
    }
  });
});

describe("at least one active admin", () => {
  let t: TestDatabase;
  let n = 0;
  const newAdmin = async (): Promise<PublicUser> =>
    createUser(t.db, "cli", {
      email: `admin${++n}@race.test`,
      name: `Admin ${n}`,
      roles: ["admin", "expert"],
      password: "long-enough-1",
    });
  const activeAdmins = async () =>
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int n from users where 'admin' = any(roles) and active`,
      )
    )[0].n;

  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(() => t.drop());

  // Each admin acts on a connection of their own, as two requests of two server processes would.
  const twoConnections = () => [createDb(t.url, { max: 1 }), createDb(t.url, { max: 1 })];

  it.each([
    [
      "deactivating",
      (db: Parameters<typeof setUserActive>[0], actor: PublicUser, other: PublicUser) =>
        setUserActive(db, actor, other.id, false),
    ],
    [
      "taking the admin role from",
      (db: Parameters<typeof setUserActive>[0], actor: PublicUser, other: PublicUser) =>
        updateUser(db, actor, other.id, { roles: ["expert"], name: other.name, subjectIds: [] }),
    ],
  ])("two admins %s each other at once leave one active admin", async (_what, remove) => {
    for (let round = 0; round < 5; round++) {
      await t.db.execute(sql`update users set active = false where 'admin' = any(roles)`);
      const [a, b] = [await newAdmin(), await newAdmin()];
      const [one, two] = twoConnections();
      try {
        const results = await Promise.allSettled([remove(one.db, a, b), remove(two.db, b, a)]);
        expect(await activeAdmins()).toBe(1);
        const refused = results.filter((r) => r.status === "rejected");
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(LastAdminError);
      } finally {
        await Promise.all([one.sql.end(), two.sql.end()]);
      }
    }
  });

  it("refuses the last admin's removal and writes nothing, not even an audit entry", async () => {
    const a = await newAdmin();
    await expect(setUserActive(t.db, "cli", a.id, false)).rejects.toThrow(
      "This is the last active admin; make another admin first.",
    );
    await expect(
      updateUser(t.db, "cli", a.id, { roles: ["analyst"], name: a.name, subjectIds: [] }),
    ).rejects.toBeInstanceOf(LastAdminError);
    expect(await activeAdmins()).toBe(1);
    const audit = await t.db.execute(
      sql`select action from audit_log where target = ${`user:${a.id}`} and action <> 'user.create'`,
    );
    expect(audit).toHaveLength(0);
    // Another role beside admin, or a name change, is not a removal.
    await updateUser(t.db, "cli", a.id, {
      roles: ["admin", "convener"],
      name: "Still Admin",
      subjectIds: [],
    });
    expect(await activeAdmins()).toBe(1);
  });
});
