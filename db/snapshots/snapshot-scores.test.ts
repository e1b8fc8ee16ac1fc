import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createSnapshot, getSnapshot, snapshotCsv } from "./snapshots";
import type { OfflineReport } from "../../scripts/offline/report";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "snapshot-scores" });
});
afterAll(() => t.drop());

describe("an offline snapshot keeps the score and exposure sections", () => {
  it("stores score statistics, bands and exposure, and its CSV carries the exposure figures", async () => {
    const created = await createSnapshot(t.db, "cli", {
      kind: "offline",
      ks: [5, 10],
      B: 100,
      seed: "scores",
    });
    const stored = await getSnapshot(t.db, created.id);
    const [system] = (stored.result as OfflineReport).systems;
    // The demo lists carry scores: statistics at ranks 1..10 and decile bands over every list item.
    expect(system.scoreStats).toMatchObject({ scored: true, depth: 10 });
    expect(system.scoreBands?.method).toBe("deciles");
    expect(system.scoreBands!.bands.reduce((n, b) => n + b.candidates, 0)).toBeGreaterThan(0);
    expect(system.exposure.overall.byK.map((x) => x.k)).toEqual([5, 10]);
    expect(system.exposure.overall.predictionCoverage).toBe(1);
    const csv = snapshotCsv(stored);
    expect(csv).toContain(`${system.key},overall,PredictionCoverage,1,,`);
    expect(csv).toMatch(new RegExp(`${system.key},overall,Gini@10,0\\.\\d+,,`));
  });
});
