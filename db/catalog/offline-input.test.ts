import fs from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createBaselines } from "./baselines";
import { importFile } from "../import";
import { loadOfflineInput } from "./offline-input";
import { offlineReport } from "../../scripts/offline/report";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists", "gold"] as const) {
    expect((await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv")).ok).toBe(true);
  }
});
afterAll(() => t.drop());

describe("tier-1 data from the database", () => {
  it("loads lists by variant in rank order, gold committees and the catalog", async () => {
    const input = await loadOfflineInput(t.db);
    expect(input.systems.map((s) => s.key)).toEqual(["bm25", "dense"]);
    expect(input.systems[1].lists.get("P-101")).toEqual(
      new Map([
        ["default", ["C-3", "C-4"]],
        ["short-query", ["C-4", "C-3"]],
      ]),
    );
    expect(input.gold.get("P-100")).toEqual(new Set(["C-1"]));
    expect(input.systems[0].scores?.get("P-100")?.get("default")).toEqual([12.5, 11, 3.2]);
    expect(input.catalog.size).toBe(4);
    const report = offlineReport(input, { ks: [1], B: 50 });
    // dense: P-100 hit at 1; P-101 mean of variants (hit at 1, miss at 1) = 0.5
    expect(report.systems[1].overall.measures["Success@1"].value).toBe(0.75);
  });

  it("creates baselines; popular counts committees without the proposal's own", async () => {
    const summary = await createBaselines(t.db, { depth: 2 });
    expect(summary.map((s) => s.key)).toEqual(["random", "popular", "subject-match", "pagerank"]);
    const input = await loadOfflineInput(t.db, { systems: ["popular", "subject-match"] });
    const popular = input.systems.find((s) => s.key === "popular")!;
    expect(popular.lists.get("P-100")!.get("default")![0]).toBe("C-3");
    expect(popular.lists.get("P-101")!.get("default")![0]).toBe("C-1");
    const subjectMatch = input.systems.find((s) => s.key === "subject-match")!;
    expect(subjectMatch.lists.get("P-101")!.get("default")![0]).toBe("C-3"); // cryo-EM; membrane proteins
    // pagerank: each subject has one proposal, so without its own committee nobody sat on one of the
    // subject's committees, and the lists are empty (no list, so prediction coverage 0).
    expect(summary.find((s) => s.key === "pagerank")).toEqual({ key: "pagerank", lists: 2, items: 0 });
    // Running it again replaces the lists instead of adding to them.
    await createBaselines(t.db, { depth: 2 });
    expect(
      (await loadOfflineInput(t.db, { systems: ["random"] })).systems[0].lists.get("P-100")!.get("default"),
    ).toHaveLength(2);
  });
});
