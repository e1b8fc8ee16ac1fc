import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { hashPassword } from "./password";
import { guardKnownPasswords, isLoopback, KnownPasswordError } from "./known-passwords";
import { setUserPassword } from "./users";

/** The demo accounts' published password, checked at every start of the server. */
let t: TestDatabase;
const demo = { emails: ["admin@demo.test", "expert@demo.test"], password: "assay-demo" };
const flags = async () =>
  t.db.execute<{ email: string; must: boolean }>(
    sql`select email, must_change_password as must from users order by email`,
  );

beforeAll(async () => {
  t = await createTestDatabase();
  const known = await hashPassword(demo.password);
  const own = await hashPassword("a-password-of-its-own-9");
  await t.db.execute(sql`insert into users (email, name, roles, password_hash) values
    ('admin@demo.test', 'Admin', '{admin}', ${known}), ('expert@demo.test', 'Expert', '{expert}', ${own}),
    ('other@demo.test', 'Other', '{analyst}', ${known})`);
});
afterAll(() => t.drop());

it("tells loopback addresses from network ones", () => {
  expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopback)).toBe(true);
  expect(["0.0.0.0", "::", "192.0.2.1", "assay.example.org"].some(isLoopback)).toBe(false);
});

it("production on the network refuses to start while a demo account has the known password, changing nothing", async () => {
  await expect(guardKnownPasswords(t.db, demo, { production: true, host: "0.0.0.0" })).rejects.toThrow(
    new KnownPasswordError(
      "Refusing to start in production on 0.0.0.0: admin@demo.test still has the demo password that anyone can read. Start once with HOST=127.0.0.1, sign in and change it (or deactivate the account), then start again.",
    ),
  );
  expect((await flags()).map((r) => r.must)).toEqual([false, false, false]);
});

it("on loopback, a demo starts as it is; on the network, the account must change its password first", async () => {
  expect(await guardKnownPasswords(t.db, demo, { production: true, host: "127.0.0.1" })).toEqual([
    "admin@demo.test",
  ]);
  expect((await flags()).map((r) => r.must)).toEqual([false, false, false]);
  await guardKnownPasswords(t.db, demo, { production: false, host: "0.0.0.0" });
  // Only the demo account with the known password: not the one changed, not a non-demo account.
  expect(await flags()).toEqual([
    { email: "admin@demo.test", must: true },
    { email: "expert@demo.test", must: false },
    { email: "other@demo.test", must: false },
  ]);
});

it("once the password is changed, production starts", async () => {
  const [admin] = await t.db.execute<{ id: number }>(
    sql`select id from users where email = 'admin@demo.test'`,
  );
  await setUserPassword(t.db, "cli", admin.id, "quiet-orchard-lantern-4");
  expect(await guardKnownPasswords(t.db, demo, { production: true, host: "0.0.0.0" })).toEqual([]);
});
