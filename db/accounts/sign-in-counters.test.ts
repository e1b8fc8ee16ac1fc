import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createDb } from "../platform/client";
import { GrowingDelay } from "./sign-in-counters";

// Two servers on one database: each has its own connection pool and its own GrowingDelay instance,
// and both must see every failure, so spreading guesses over servers gains nothing.
let t: TestDatabase;
let second: ReturnType<typeof createDb>;
beforeAll(async () => {
  t = await createTestDatabase();
  second = createDb(t.url, { max: 2 });
});
afterAll(async () => {
  await second.sql.end();
  await t.drop();
});

const rule = { free: 3, baseMs: 2000, capMs: 60_000, forgetMs: 3_600_000 };
const start = Date.parse("2030-01-01T00:00:00Z");

it("two servers count the same failures and impose the same growing delay", async () => {
  const [a, b] = [new GrowingDelay("account", rule), new GrowingDelay("account", rule)];
  // Failures alternate between the servers: 3 free, then 2 s, 4 s, 8 s whichever server is asked.
  for (let i = 0; i < 3; i++)
    await (i % 2 ? b.fail(second.db, "ada", start + i) : a.fail(t.db, "ada", start + i));
  expect(await a.retryAfter(t.db, "ada", start + 3)).toBe(2000 - 1);
  await b.fail(second.db, "ada", start + 10);
  expect(await a.retryAfter(t.db, "ada", start + 10)).toBe(4000);
  expect(await b.retryAfter(second.db, "ada", start + 10)).toBe(4000);
  await a.fail(t.db, "ada", start + 20);
  expect(await b.retryAfter(second.db, "ada", start + 20)).toBe(8000);
  // Another key, or the same key in another scope, is not delayed.
  expect(await b.retryAfter(second.db, "bob", start + 20)).toBe(0);
  expect(await new GrowingDelay("address", rule).retryAfter(t.db, "ada", start + 20)).toBe(0);
  // A success on one server clears the count for both.
  await b.reset(second.db, "ada");
  expect(await a.retryAfter(t.db, "ada", start + 20)).toBe(0);
});

it("failures at the same moment on both servers are all counted", async () => {
  const [a, b] = [new GrowingDelay("pair", rule), new GrowingDelay("pair", rule)];
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 ? b.fail(second.db, "k", start) : a.fail(t.db, "k", start))),
  );
  const [row] = await t.db.execute<{ failures: number }>(
    sql`select failures from sign_in_failures where scope = 'pair'`,
  );
  expect(row.failures).toBe(20);
});

it("forgets a key after its quiet time and prunes forgotten rows; stores no key as typed", async () => {
  const a = new GrowingDelay("forget", rule);
  for (let i = 0; i < 5; i++) await a.fail(t.db, "ada@x.org", start);
  const later = start + rule.forgetMs;
  expect(await a.retryAfter(t.db, "ada@x.org", later)).toBe(0);
  await a.fail(t.db, "ada@x.org", later);
  expect(await a.retryAfter(t.db, "ada@x.org", later)).toBe(0); // counting from 1 again
  await a.fail(t.db, "other@x.org", later + rule.forgetMs + 1); // prunes ada's row, now forgotten
  const rows = await t.db.execute<{ key_hash: string }>(
    sql`select key_hash from sign_in_failures where scope = 'forget'`,
  );
  expect(rows).toHaveLength(1);
  expect(JSON.stringify(rows)).not.toMatch(/@x\.org/);
});
