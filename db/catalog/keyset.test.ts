import { createTestDatabase, type TestDatabase } from "../../test/database";
import { auditLog, candidates, proposals, rankedLists, systems, users } from "../schema";
import type { Cursor, Page } from "../platform/keyset";
import { listAuditEntries } from "../audit/audit-log";
import { listUsersPage } from "../accounts/users";
import { listCandidates, listProposals, listRankedLists } from "./catalog";

// Every list pages by keyset the same way (db/platform/keyset.ts). Each is filled with values that
// repeat, so ties must be broken by id, and walked to its end by cursors, forwards then backwards: the
// pages must hold every row once, in the order the sort promises (value, then id in the same direction).
let t: TestDatabase;
const N = 60;
beforeAll(async () => {
  t = await createTestDatabase();
  // Values differ only in a digit, so PostgreSQL's collation and JavaScript's < agree on their order.
  await t.db.insert(candidates).values(
    Array.from({ length: N }, (_, i) => ({
      externalId: `C-${String(i).padStart(3, "0")}`,
      name: `Name ${i % 7}`,
      affiliation: `Lab ${i % 4}`,
    })),
  );
  const inserted = await t.db
    .insert(proposals)
    .values(
      Array.from({ length: N }, (_, i) => ({
        externalId: `P-${String(i).padStart(3, "0")}`,
        title: `T ${i % 5}`,
      })),
    )
    .returning({ id: proposals.id });
  const [a, b] = await t.db
    .insert(systems)
    .values([
      { key: "sys-a", name: "A" },
      { key: "sys-b", name: "B" },
    ])
    .returning({ id: systems.id });
  const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + (i % 3)));
  await t.db.insert(rankedLists).values(
    inserted.flatMap((p, i) => [
      { systemId: a.id, proposalId: p.id, variant: `v${i % 3}`, importedAt: day(i) },
      { systemId: b.id, proposalId: p.id, variant: `v${i % 2}`, importedAt: day(i + 1) },
    ]),
  );
  await t.db.insert(users).values(
    Array.from({ length: N }, (_, i) => ({
      email: `u${String(i).padStart(3, "0")}@x.org`,
      name: `User ${i % 6}`,
      roles: ["expert" as const],
      passwordHash: "scrypt$x",
    })),
  );
  // Entries in bursts of 4 within the same microsecond: the newest-first order breaks those ties by id.
  await t.db.insert(auditLog).values(
    Array.from({ length: N }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(i / 4))),
      actorLabel: "cli",
      action: i % 2 ? "test.odd" : "test.even",
      target: `e${i}`,
    })),
  );
});
afterAll(() => t.drop());

interface Read {
  rows: { id: number }[];
  total: number;
  cursors: { first: [string, number] | null; last: [string, number] | null };
}

/** Every page by number, then forwards by `after` and back by `before`: all must agree, no row twice. */
async function walk(read: (page: Page & Cursor) => Promise<Read>, page: Page) {
  const forward = [await read(page)];
  const pages = Math.ceil(forward[0].total / page.size);
  const byNumber: number[][] = [];
  for (let p = 1; p <= pages; p++) byNumber.push((await read({ ...page, page: p })).rows.map((r) => r.id));
  for (let p = 2; p <= pages; p++)
    forward.push(await read({ ...page, page: p, after: forward.at(-1)!.cursors.last! }));
  const back = [forward.at(-1)!];
  for (let p = pages - 1; p >= 1; p--)
    back.unshift(await read({ ...page, page: p, before: back[0].cursors.first! }));
  expect(forward.map((f) => f.rows.map((r) => r.id))).toEqual(byNumber);
  expect(back.map((f) => f.rows.map((r) => r.id))).toEqual(byNumber);
  const ids = byNumber.flat();
  expect(ids).toHaveLength(forward[0].total);
  expect(new Set(ids).size).toBe(ids.length);
  return ids;
}

/** The order a sort promises: by value, ties by id, both in the sort's direction. */
function expected<T extends { id: number }>(
  rows: T[],
  value: (r: T) => string | number,
  dir: "asc" | "desc",
) {
  const sign = dir === "asc" ? 1 : -1;
  return [...rows]
    .sort((x, y) => sign * (value(x) < value(y) ? -1 : value(x) > value(y) ? 1 : x.id - y.id))
    .map((r) => r.id);
}

const base: Page = { q: "", sort: "", dir: "asc", page: 1, size: 7 };

describe("keyset pages", () => {
  for (const [sort, dir] of [
    ["externalId", "asc"],
    ["externalId", "desc"],
    ["name", "desc"],
    ["affiliation", "asc"],
  ] as const)
    it(`candidates by ${sort} ${dir}`, async () => {
      const all = await t.db.select().from(candidates);
      const ids = await walk((p) => listCandidates(t.db, p), { ...base, sort, dir });
      expect(ids).toEqual(expected(all, (r) => r[sort], dir));
    });

  for (const [sort, dir] of [
    ["externalId", "desc"],
    ["title", "asc"],
    ["title", "desc"],
  ] as const)
    it(`proposals by ${sort} ${dir}`, async () => {
      const all = await t.db.select().from(proposals);
      const ids = await walk((p) => listProposals(t.db, p), { ...base, sort, dir });
      expect(ids).toEqual(expected(all, (r) => r[sort], dir));
    });

  for (const [sort, dir] of [
    ["system", "asc"],
    ["variant", "desc"],
    ["importedAt", "desc"],
  ] as const)
    it(`lists by ${sort} ${dir}`, async () => {
      const all = (await t.db.select().from(rankedLists)).map((r) => ({
        ...r,
        system: r.systemId, // sys-a was inserted first: system ids follow the keys' order
        importedAt: r.importedAt.getTime(),
      }));
      const ids = await walk((p) => listRankedLists(t.db, p), { ...base, size: 9, sort, dir });
      expect(ids).toHaveLength(2 * N);
      expect(ids).toEqual(expected(all, (r) => r[sort], dir));
    });

  for (const [sort, dir] of [
    ["name", "asc"],
    ["email", "desc"],
  ] as const)
    it(`users by ${sort} ${dir}`, async () => {
      const all = await t.db.select().from(users);
      const ids = await walk((p) => listUsersPage(t.db, p), { ...base, sort, dir });
      expect(ids).toEqual(expected(all, (r) => r[sort], dir));
    });

  it("audit log, newest first, ties by id", async () => {
    const all = await t.db.select().from(auditLog);
    const read = async (p: Page & Cursor) => listAuditEntries(t.db, { ...p }, p.size);
    const ids = await walk(read, { ...base, dir: "desc" });
    expect(ids).toEqual(expected(all, (r) => r.at.getTime(), "desc"));
  });

  it("reads a page past the middle from the end, also for a sort with no cursor (a count per row)", async () => {
    // Every page by number: those past the middle are read backwards from the last row.
    for (const dir of ["asc", "desc"] as const) {
      const page = { ...base, sort: "lists", dir };
      const pages = Math.ceil(N / page.size);
      const ids: number[] = [];
      for (let p = 1; p <= pages; p++)
        ids.push(...(await listProposals(t.db, { ...page, page: p })).rows.map((r) => r.id));
      const all = (await t.db.select().from(proposals)).map((r) => ({ ...r, lists: 2 }));
      expect(ids).toEqual(expected(all, (r) => r.lists, dir));
    }
    // A page past the last is empty, not a wrap-around.
    expect((await listProposals(t.db, { ...base, sort: "title", page: 99 })).rows).toEqual([]);
  });

  it("keeps the search with the cursor", async () => {
    const page = { ...base, sort: "externalId", q: "Name 3", size: 3 };
    const first = await listCandidates(t.db, page);
    const second = await listCandidates(t.db, { ...page, page: 2, after: first.cursors.last! });
    expect(first.total).toBe(9);
    expect([...first.rows, ...second.rows].map((r) => r.name)).toEqual(Array(6).fill("Name 3"));
  });

  it("keeps the audit filters with the cursor", async () => {
    const filter = { what: "test.odd" };
    const first = await listAuditEntries(t.db, filter, 10);
    const second = await listAuditEntries(t.db, { ...filter, page: 2, after: first.cursors.last! }, 10);
    const byNumber = await listAuditEntries(t.db, { ...filter, page: 2 }, 10);
    expect(first.total).toBe(N / 2);
    expect(second.rows.map((r) => r.action)).toEqual(Array(10).fill("test.odd"));
    expect(second.rows.map((r) => r.id)).toEqual(byNumber.rows.map((r) => r.id));
  });
});
