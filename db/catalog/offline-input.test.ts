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

  it("lets a dated proposal's popular and pagerank lists learn only from earlier committees", async () => {
    // Three dated proposals without a subject: P-200 (C-2, C-4) before P-201 (C-2) before P-202 (C-4, C-3).
    const proposals = [
      "external_id,title,abstract,keywords,subject,date",
      "P-200,Early,Early.,x,,2024-01-05",
      "P-201,Middle,Middle.,x,,2024-02-05",
      "P-202,Late,Late.,x,,2024-03-05",
    ].join("\n");
    expect((await importFile(t.db, "cli", "proposals", proposals, "csv")).ok).toBe(true);
    const gold = "proposal,candidate\nP-200,C-2\nP-200,C-4\nP-201,C-2\nP-202,C-4\nP-202,C-3\n";
    expect((await importFile(t.db, "cli", "gold", gold, "csv")).ok).toBe(true);
    await createBaselines(t.db, { depth: 4 });
    const input = await loadOfflineInput(t.db, { systems: ["popular", "pagerank"] });
    const listOf = (system: string, proposal: string) =>
      input.systems
        .find((s) => s.key === system)!
        .lists.get(proposal)!
        .get("default")!;
    // P-201 sees P-200 only: C-2 and C-4 once each (C-2 first by id); P-202's own C-3 and P-201's C-2 play no part.
    expect(listOf("popular", "P-201").slice(0, 2)).toEqual(["C-2", "C-4"]);
    // P-202 sees P-200 and P-201: C-2 twice, then C-4 once; never its own committee's C-3 ahead of them.
    expect(listOf("popular", "P-202").slice(0, 2)).toEqual(["C-2", "C-4"]);
    // The earliest sees no committee: every count 0, the list by candidate id.
    expect(listOf("popular", "P-200")).toEqual(["C-1", "C-2", "C-3", "C-4"]);
    // PageRank before P-202: the one link C-2–C-4 (P-201 has a single member), so those two lead.
    expect(listOf("pagerank", "P-202").slice(0, 2).sort()).toEqual(["C-2", "C-4"]);
    // The undated P-100 learns from every committee but its own: C-2, C-3 and C-4 sat on two each (ties by id).
    expect(listOf("popular", "P-100")[0]).toBe("C-2");
  });
});
