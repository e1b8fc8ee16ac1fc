import { createTestDatabase, type TestDatabase } from "../../test/database";
import { applyMigrationsUpTo, codeMigrations } from "../backup/migrations";
import { applyMigrations } from "../migrate";

/**
 * Migration 0011 scopes event ids by experiment: every event stored under the old key (the id alone)
 * is kept, and afterwards an id already used by one experiment can be stored for another.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ empty: true });
});
afterAll(() => t.drop());

it("keeps every stored event and then lets two experiments use one id", async () => {
  const before = codeMigrations().findIndex((m) => m.sql.some((s) => s.includes('"server_keys"')));
  expect(before).toBeGreaterThan(0);
  await t.sql.begin(async (tx) => {
    await applyMigrationsUpTo(tx, before);
    // Recorded as drizzle's migrator records them, so that applyMigrations goes on from there.
    for (const m of codeMigrations().slice(0, before))
      await tx`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`;
  });
  await t.sql`insert into experiments (id, key, name, seed) values (1, 'a', 'A', 'a'), (2, 'b', 'B', 'b')`;
  const row = (id: string, experiment: number) =>
    t.sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id)
          values (${id}, ${experiment}, 'click', now(), 'A', 'u', 's', 'p')`;
  await row("e-1", 1);
  await row("e-2", 1);
  await row("e-3", 2);
  await expect(row("e-1", 2)).rejects.toThrow(/events_pkey/); // the old key: one id across experiments
  await applyMigrations(t.url);
  const kept = await t.sql`select experiment_id, event_id from events order by event_id`;
  expect(kept.map((r) => `${r.experiment_id}:${r.event_id}`)).toEqual(["1:e-1", "1:e-2", "2:e-3"]);
  await row("e-1", 2);
  await expect(row("e-1", 2)).rejects.toThrow(/events_pkey/); // still once per experiment
});
