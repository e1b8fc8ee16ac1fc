import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "./index";

/** Candidates' group attributes: imported, replaced by a later file, refused by line and never half-written. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const candidates = "external_id,name\nC-1,Ann\nC-2,Bo\nC-3,Cy\n";
  expect((await importFile(t.db, "cli", "candidates", candidates, "csv")).ok).toBe(true);
});
afterAll(() => t.drop());

const stored = async () =>
  (
    await t.db.execute<{
      row: string;
    }>(sql`select c.external_id || ':' || a.attribute || '=' || a.value as row
      from candidate_attributes a join candidates c on c.id = a.candidate_id order by 1`)
  ).map((r) => r.row);

describe("import attributes", () => {
  it("stores one value per candidate and attribute, and a later file replaces it", async () => {
    const first = "candidate,attribute,value\nC-1,gender,f\nC-1,country,SE\nC-2,gender,unknown\n";
    expect(await importFile(t.db, "cli", "attributes", first, "csv")).toMatchObject({
      ok: true,
      counts: { added: 3, updated: 0, unchanged: 0 },
    });
    const second = "candidate,attribute,value\nC-1,gender,f\nC-2,gender,m\n";
    expect(await importFile(t.db, "cli", "attributes", second, "csv")).toMatchObject({
      ok: true,
      counts: { added: 0, updated: 1, unchanged: 1 },
    });
    expect(await stored()).toEqual(["C-1:country=SE", "C-1:gender=f", "C-2:gender=m"]);
  });

  it("refuses an unknown candidate, an empty attribute, a long value and a repeat, naming each line", async () => {
    const before = await stored();
    const file = [
      "candidate,attribute,value",
      "C-3,gender,f",
      "C-9,gender,m",
      "C-3,,x",
      `C-3,country,${"x".repeat(201)}`,
      "C-3,gender,m",
    ].join("\n");
    const result = await importFile(t.db, "cli", "attributes", file, "csv");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { line: 3, message: "unknown candidate C-9 (import candidates first)" },
      { line: 4, message: "attribute is empty" },
      { line: 5, message: "value is longer than 200 characters" },
      { line: 6, message: "gender of C-3 repeats line 2" },
    ]);
    expect(await stored()).toEqual(before);
  });
});
