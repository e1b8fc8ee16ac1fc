import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createSnapshot, snapshotRows } from "../../db/snapshots/snapshots";
import { canonicalJson } from "../../scripts/lib/canonical";

/**
 * "Freeze snapshot" passes the parameters the dashboard used (`parameters` of its data); a snapshot
 * made with them holds exactly the figures the page shows, intervals included.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "snapshot-page" });
});
afterAll(() => t.drop());

const same = (value: unknown) => JSON.parse(canonicalJson(value));

describe("a snapshot frozen from a dashboard", () => {
  it("holds the campaign page's results, agreement and gold figures, intervals included", async () => {
    const { campaignDashboard } = await import("./dashboards.server");
    const [{ id }] = await t.db.execute<{ id: number }>(
      sql`select id from campaigns where status <> 'draft' limit 1`,
    );
    const page = await campaignDashboard(String(id), { goldWaitMs: Infinity });
    const snapshot = await createSnapshot(t.db, "cli", { kind: "expert", campaign: id, ...page.parameters });
    const frozen = snapshot.result as { results: unknown; agreement: unknown; gold: { goldItems: number } };
    expect(frozen.results).toEqual(same(page.results));
    expect(frozen.agreement).toEqual(same(page.agreement));
    // The demo's gold items and its biased expert: the snapshot carries the page's gold tables.
    expect(frozen.gold.goldItems).toBeGreaterThan(0);
    expect(frozen.gold).toEqual(same(page.gold));
    // Its CSV has a row per aggregation method's gold accuracy, with the interval.
    const rows = snapshotRows(snapshot).filter((r) => r[1] === "gold" && r[2] === "accuracy");
    expect(rows.map((r) => r[0]).sort()).toEqual(["dawid-skene", "majority", "mean", "median"]);
    expect(rows.every((r) => r[4] !== null && r[5] !== null)).toBe(true);
  }, 600_000);

  it("holds the experiment page's report with the experiment's seed", async () => {
    const { experimentDashboard } = await import("./dashboards.server");
    const page = await experimentDashboard("reviewer-ranker-v2");
    const snapshot = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      ...page.parameters,
    });
    const {
      experiment: _named,
      daily,
      decisions,
      composition,
      ...report
    } = snapshot.result as Record<string, unknown>;
    expect(report).toEqual(same(page.report));
    // The composition of adopted candidates by arm, as the page's section computes it with its B and seed.
    const { compositionDashboard } = await import("./composition.server");
    const live = await compositionDashboard(page.experiment, page.parameters);
    expect(live).not.toBeNull();
    expect(composition).toEqual(same(live));
    expect(daily).toEqual(same(page.daily));
    // The decision figures (engine, CUPED) sit beside the report on the page, inside it in a snapshot.
    expect(decisions).toEqual(same(page.decisions));
  });
});
