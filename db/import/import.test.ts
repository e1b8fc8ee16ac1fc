import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "./index";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;

async function counts() {
  const [row] = await t.db.execute<Record<string, number>>(sql`select
    (select count(*)::int from subjects) subjects, (select count(*)::int from proposals) proposals,
    (select count(*)::int from candidates) candidates, (select count(*)::int from systems) systems,
    (select count(*)::int from ranked_lists) lists, (select count(*)::int from list_items) items,
    (select count(*)::int from gold_members) gold`);
  return row;
}

async function importAll() {
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists", "gold"] as const) {
    const result = await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
    expect(result.ok, JSON.stringify(result)).toBe(true);
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

describe("importFile", () => {
  it("imports the sample files and reports what was added", async () => {
    await importAll();
    expect(await counts()).toEqual({
      subjects: 2,
      proposals: 2,
      candidates: 4,
      systems: 2,
      lists: 5,
      items: 11,
      gold: 2,
    });
  });

  it("changes nothing when the same files are imported again", async () => {
    const result = await importFile(t.db, "cli", "lists", fixture("lists.csv"), "csv");
    expect(result).toMatchObject({
      ok: true,
      counts: { added: 0, updated: 0, unchanged: 11, removed: 0, listsAdded: 0 },
    });
    const proposals = await importFile(t.db, "cli", "proposals", fixture("proposals.csv"), "csv");
    expect(proposals).toMatchObject({ ok: true, counts: { added: 0, updated: 0, unchanged: 2 } });
    expect(await counts()).toEqual({
      subjects: 2,
      proposals: 2,
      candidates: 4,
      systems: 2,
      lists: 5,
      items: 11,
      gold: 2,
    });
  });

  it("counts updated rows and replaces a list it names", async () => {
    const result = await importFile(
      t.db,
      "cli",
      "proposals",
      "external_id,title\nP-100,A better title\nP-200,New one\n",
      "csv",
    );
    expect(result).toMatchObject({ ok: true, counts: { added: 1, updated: 1, unchanged: 0 } });
    const list = await importFile(
      t.db,
      "cli",
      "lists",
      "system,proposal,rank,candidate,score\nbm25,P-100,1,C-1,2\nbm25,P-100,2,C-2,1\n",
      "csv",
    );
    expect(list).toMatchObject({ ok: true, counts: { added: 0, updated: 2, unchanged: 0, removed: 1 } });
    const rows = await t.db.execute<{ rank: number; external_id: string }>(
      sql`select li.rank, c.external_id from list_items li join ranked_lists rl on rl.id = li.list_id join systems s on s.id = rl.system_id join proposals p on p.id = rl.proposal_id join candidates c on c.id = li.candidate_id where s.key = 'bm25' and p.external_id = 'P-100' order by li.rank`,
    );
    expect(rows.map((r) => [r.rank, r.external_id])).toEqual([
      [1, "C-1"],
      [2, "C-2"],
    ]);
  });

  it("rejects a file with bad rows, names each line and reason, and writes nothing", async () => {
    const before = await counts();
    const result = await importFile(t.db, "cli", "lists", fixture("lists-bad.csv"), "csv");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { line: 3, message: "rank 1 in list bm25 / P-100 / default repeats line 2" },
      { line: 4, message: "unknown proposal P-999" },
      { line: 5, message: "score must be a number" },
      { line: 6, message: "rank must be a number" },
    ]);
    expect(await counts()).toEqual(before);
  });

  it("names missing and unknown columns", async () => {
    const result = await importFile(t.db, "cli", "gold", "proposal,candidat\nP-100,C-1\n", "csv");
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { line: 1, message: expect.stringMatching(/missing column candidate; unknown column candidat/) },
      ],
    });
  });

  it("rejects duplicate candidates within one list and unknown references", async () => {
    const text = "system,proposal,rank,candidate\nbm25,P-101,1,C-3\nbm25,P-101,2,C-3\nnope,P-101,1,C-1\n";
    const result = await importFile(t.db, "cli", "lists", text, "csv");
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { line: 3, message: "candidate C-3 in list bm25 / P-101 / default repeats line 2" },
        { line: 4, message: "unknown system nope (import systems first)" },
      ],
    });
  });

  it("validates field values with messages that name the field", async () => {
    const text = [
      '{"external_id": "C-9", "name": ""}',
      '{"external_id": "C-10", "name": "X", "email": "not-an-email"}',
      '{"external_id": "C-11", "name": "Y", "keywords": 5}',
    ].join("\n");
    const result = await importFile(t.db, "cli", "candidates", text, "jsonl");
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { line: 1, message: "name is empty" },
        { line: 2, message: "email is not a valid address" },
        { line: 3, message: "keywords must be a list or a ;-separated text" },
      ],
    });
  });

  it("rejects ranks that are not whole numbers of at least 1", async () => {
    const text = "system,proposal,rank,candidate\nbm25,P-101,0,C-3\nbm25,P-101,1.5,C-4\nbm25,P-101,,C-1\n";
    const result = await importFile(t.db, "cli", "lists", text, "csv");
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { line: 2, message: "rank must be 1 or more" },
        { line: 3, message: "rank must be a whole number" },
        { line: 4, message: "rank is missing" },
      ],
    });
  });

  it("rejects an empty file", async () => {
    expect(await importFile(t.db, "cli", "subjects", "key,name\n", "csv")).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: "the file has no rows" }],
    });
  });
});
