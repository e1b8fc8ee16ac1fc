import { createTestDatabase, type TestDatabase } from "../../test/database";
import { candidates } from "../schema";
import { listCandidates, type Page } from "./catalog";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  // 60 candidates whose names and affiliations repeat, so ties must be broken by id.
  await t.db.insert(candidates).values(
    Array.from({ length: 60 }, (_, i) => ({
      externalId: `C-${String(i).padStart(3, "0")}`,
      name: `Name ${i % 7}`,
      affiliation: `Lab ${i % 4}`,
    })),
  );
});
afterAll(() => t.drop());

const base: Page = { q: "", sort: "externalId", dir: "asc", page: 1, size: 25 };

describe("keyset pages of candidates", () => {
  for (const [sort, dir] of [
    ["externalId", "asc"],
    ["externalId", "desc"],
    ["name", "desc"],
    ["affiliation", "asc"],
  ] as const) {
    it(`by ${sort} ${dir}: next and previous cursors give the same pages as page numbers`, async () => {
      const page = { ...base, sort, dir };
      const byNumber = [];
      for (let p = 1; p <= 3; p++)
        byNumber.push((await listCandidates(t.db, { ...page, page: p })).rows.map((r) => r.externalId));
      expect(byNumber.flat()).toHaveLength(60);
      expect(new Set(byNumber.flat()).size).toBe(60);

      const forward = [await listCandidates(t.db, page)];
      for (let p = 2; p <= 3; p++)
        forward.push(await listCandidates(t.db, { ...page, page: p, after: forward.at(-1)!.cursors.last! }));
      expect(forward.map((f) => f.rows.map((r) => r.externalId))).toEqual(byNumber);

      const back = await listCandidates(t.db, { ...page, page: 2, before: forward[2].cursors.first! });
      expect(back.rows.map((r) => r.externalId)).toEqual(byNumber[1]);
      const first = await listCandidates(t.db, { ...page, page: 1, before: back.cursors.first! });
      expect(first.rows.map((r) => r.externalId)).toEqual(byNumber[0]);
    });
  }

  it("keeps the search with the cursor", async () => {
    const page = { ...base, q: "Name 3", size: 3 };
    const first = await listCandidates(t.db, page);
    const second = await listCandidates(t.db, { ...page, page: 2, after: first.cursors.last! });
    expect(first.total).toBe(9);
    expect([...first.rows, ...second.rows].map((r) => r.name)).toEqual(Array(6).fill("Name 3"));
  });
});
