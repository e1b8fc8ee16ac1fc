import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../accounts/users";
import { createExperiment } from "../experiments/experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { exposures } from "../schema";
import { importFile } from "./index";

/**
 * Conveners' attributes: a convener named by email (stored as their unit, never the email) or by an
 * experiment's unit; replaced by a later file; a bad file refused by line and nothing written.
 */
let t: TestDatabase;
let convenerUnit = "";
beforeAll(async () => {
  t = await createTestDatabase();
  const user = await createUser(t.db, "cli", {
    email: "Ada@Test.local",
    name: "Ada",
    roles: ["convener"],
    password: "long-enough-1",
  });
  await createUser(t.db, "cli", {
    email: "analyst@test.local",
    name: "Ana",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  convenerUnit = `convener-${user.id}`;
  expect((await importFile(t.db, "cli", "systems", "key\nbase\nnew\n", "csv")).ok).toBe(true);
  const experiment = await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "exp",
      name: "Exp",
      arms: [
        { key: "A", system: "base", weight: 0.5 },
        { key: "B", system: "new", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await t.db
    .insert(exposures)
    .values({ experimentId: experiment.id, unit: "ext-7", armId: experiment.arms[0].id });
});
afterAll(() => t.drop());

const stored = async () =>
  (
    await t.db.execute<{ row: string }>(
      sql`select unit || ':' || attribute || '=' || value as row from convener_attributes order by 1`,
    )
  ).map((r) => r.row);

describe("import convener-attributes", () => {
  it("stores a convener's attributes under their unit, and a later file replaces a value", async () => {
    const first =
      "convener,attribute,value\nada@test.local,institution,ETH\next-7,institution,unknown\next-7,seniority,senior\n";
    expect(await importFile(t.db, "cli", "convener-attributes", first, "csv")).toMatchObject({
      ok: true,
      counts: { added: 3, updated: 0, unchanged: 0 },
    });
    const second = "convener,attribute,value\nADA@test.local,institution,EPFL\next-7,seniority,senior\n";
    expect(await importFile(t.db, "cli", "convener-attributes", second, "csv")).toMatchObject({
      ok: true,
      counts: { added: 0, updated: 1, unchanged: 1 },
    });
    expect(await stored()).toEqual(
      [`${convenerUnit}:institution=EPFL`, "ext-7:institution=unknown", "ext-7:seniority=senior"].sort(),
    );
    const emails = await t.db.execute(sql`select 1 from convener_attributes where unit like '%@%'`);
    expect(emails).toHaveLength(0);
  });

  it("refuses an unknown convener, a non-convener's email, an empty value, a long value and a repeat, naming each line", async () => {
    const before = await stored();
    const file = [
      "convener,attribute,value",
      "ext-7,career,early",
      "ext-99,institution,ETH",
      "analyst@test.local,institution,ETH",
      "ext-7,seniority,",
      `ext-7,institution,${"x".repeat(201)}`,
      "ext-7,career,late",
      ",institution,ETH",
      "ext-7,,x",
    ].join("\n");
    const result = await importFile(t.db, "cli", "convener-attributes", file, "csv");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      {
        line: 3,
        message: "unknown convener ext-99 (neither a convener's email nor a unit of any experiment)",
      },
      { line: 4, message: "no convener has the email analyst@test.local" },
      { line: 5, message: "value is empty" },
      { line: 6, message: "value is longer than 200 characters" },
      { line: 7, message: "career of ext-7 repeats line 2" },
      { line: 8, message: "convener is empty" },
      { line: 9, message: "attribute is empty" },
    ]);
    expect(await stored()).toEqual(before);
  });
});
