import { sql } from "drizzle-orm";
import { createTestDatabase } from "../test/database";
import { applyMigrations } from "./migrate";

it("applies the migrations once when two processes start at once on an empty database", async () => {
  const t = await createTestDatabase({ empty: true });
  try {
    await Promise.all([applyMigrations(t.url), applyMigrations(t.url), applyMigrations(t.url)]);
    const [applied] = await t.db.execute<{ n: number; distinct: number }>(
      sql`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
    );
    expect(applied.n).toBeGreaterThan(0);
    expect(applied.n).toBe(applied.distinct);
    const [users] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
    expect(users.n).toBe(0);
  } finally {
    await t.drop();
  }
});
