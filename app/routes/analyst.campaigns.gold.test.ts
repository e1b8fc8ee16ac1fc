import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../../db/accounts/users";
import { pseudonymizer } from "../../db/campaigns/campaign-data";
import { createSessionCookie } from "../../test/session-cookie";
import { BIASED_DEMO_EXPERT, DEMO_GOLD_ITEMS } from "../../scripts/demo/gold-items";

/**
 * The campaign page's gold figures on the demo data: 30 gold items and one expert who grades one point
 * too high. The page must flag exactly that expert (p < 0.01, positive mean difference) under their
 * pseudonym, and show every aggregation's accuracy and learning curve.
 */
let t: TestDatabase;
let campaignId = 0;
let analystCookie = "";
let biased = "";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 40, candidates: 300, seed: "gold-test" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(
    sql`select id from campaigns where status <> 'draft' limit 1`,
  );
  const [expert] = await t.db.execute<{ id: number }>(
    sql`select id from users where email = ${BIASED_DEMO_EXPERT}`,
  );
  biased = (await pseudonymizer(t.db, campaignId))(expert.id);
  const analyst = await createUser(t.db, "cli", {
    email: "gold-analyst@test.local",
    name: "Ana Lyst",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  analystCookie = await createSessionCookie(t.db, analyst.id);
}, 120_000);
afterAll(() => t.drop());

async function loadPage() {
  const { loader } = await import("./analyst.campaigns.$campaignId");
  const request = new Request(`http://localhost/analyst/campaigns/${campaignId}`, {
    headers: { Cookie: analystCookie },
  });
  const response = (await loader({
    request,
    params: { campaignId: String(campaignId) },
    context: { cspNonce: "", ip: "" },
  })) as Response;
  return response.json();
}

it("flags the biased demo expert, and only them, with the aggregations and learning curves", async () => {
  // The page waits a few seconds, then says "computing" while the pool goes on; the result is kept.
  const first = await loadPage();
  expect(first.gold === "computing" || typeof first.gold === "object").toBe(true);
  const { campaignDashboard } = await import("../results/dashboards.server");
  await campaignDashboard(String(campaignId), { goldWaitMs: Infinity });
  const gold = (await loadPage()).gold;
  expect(gold.goldItems).toBe(DEMO_GOLD_ITEMS);
  const flagged = Object.entries(
    gold.raters as Record<string, { flagged: boolean; meanDifference: number; pValue: number; gold: number }>,
  ).filter(([, r]) => r.flagged);
  expect(flagged.map(([name]) => name)).toEqual([biased]);
  const [, figures] = flagged[0];
  expect(figures.meanDifference).toBeGreaterThan(0.5);
  expect(figures.pValue).toBeLessThan(0.01);
  expect(figures.gold).toBe(DEMO_GOLD_ITEMS);
  expect(Object.keys(gold.aggregation).sort()).toEqual(["dawid-skene", "majority", "mean", "median"]);
  for (const method of ["median", "majority", "mean", "dawid-skene"]) {
    expect(gold.learningCurve[method].map((p: { n: number }) => p.n)).toEqual([1, 2, 3]);
    expect(gold.enoughRaters[method].suggestedN).toBeGreaterThanOrEqual(1);
  }
  // Per proposal: every proposal of the campaign, with its fewest judgements per pair and pooled variance.
  const proposals = Object.values(gold.proposals) as {
    minJudgements: number;
    pooledVariance: number | null;
  }[];
  expect(proposals.length).toBe(40);
  expect(proposals.every((p) => p.minJudgements >= 1 && p.pooledVariance !== null)).toBe(true);
  // Items that read alike: the clustering hypothesis for every proposal (under its own id) and the
  // text-aware estimates' curves at 1–3 votes per pair, each compared with majority vote.
  const texts = gold.texts as {
    clustering: { proposal: string; items: number; inner: { pairs: number }; outer: { pairs: number } }[];
    curves: { method: string; points: { n: number; difference: number | null }[] }[];
  };
  expect(texts.clustering.map((c) => c.proposal)).toEqual(Object.keys(gold.proposals));
  expect(texts.clustering.every((c) => c.items >= 2 && c.inner.pairs + c.outer.pairs > 0)).toBe(true);
  expect(texts.curves.map((c) => c.method)).toEqual([
    "majority",
    ...["nn", "majority-nn", "join-until-n"].flatMap((e) => [`${e} s=0.3`, `${e} adaptive`]),
  ]);
  for (const curve of texts.curves.slice(1))
    expect(curve.points.map((p) => [p.n, typeof p.difference])).toEqual([1, 2, 3].map((n) => [n, "number"]));
  if (process.env.PRINT_TEXT_FIGURES) console.log(JSON.stringify(texts));
}, 600_000);

it("keeps the last gold figures on screen while new grades are computed into them, then shows the new ones", async () => {
  const { campaignDashboard } = await import("../results/dashboards.server");
  const before = await campaignDashboard(String(campaignId), { goldWaitMs: Infinity });
  expect(before.goldStale).toBe(false);
  expect(typeof before.gold).toBe("object");
  // An expert changes a grade: the data version moves, so the gold figures are computed anew.
  await t.db.execute(
    sql`update ratings set grade = case when grade = 4 then 3 else grade + 1 end, updated_at = now()
      where ctid = (select ctid from ratings where grade is not null limit 1)`,
  );
  const meanwhile = await campaignDashboard(String(campaignId), { goldWaitMs: 0 });
  expect(meanwhile.goldStale).toBe(true);
  expect(meanwhile.gold).toEqual(before.gold);
  // Under the analyst's pseudonyms, as the new figures would be: the flagged expert is still named so.
  expect(JSON.stringify(meanwhile.gold)).toContain(biased);
  const after = await campaignDashboard(String(campaignId), { goldWaitMs: Infinity });
  expect(after).toMatchObject({ goldStale: false, goldProgress: null });
  expect(typeof after.gold).toBe("object");
}, 600_000);

it("ranks the pairs that need another grade for the admin, and keeps them off the analyst's page", async () => {
  const { campaignDashboard } = await import("../results/dashboards.server");
  const { needsGrade } = await campaignDashboard(String(campaignId), { names: true, goldWaitMs: 0 });
  expect(needsGrade.length).toBe(20);
  expect(needsGrade.every((r) => r.changeChance > 0 && r.changeChance <= 1 && r.grades >= 1)).toBe(true);
  // Most expected reversals first, then the largest expected shift of the systems' nDCG@10 differences.
  const keys = needsGrade.map((r) => [r.expectedFlips, r.expectedShift]);
  const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  expect(keys).toEqual(sorted);
  expect(needsGrade[0].expectedShift).toBeGreaterThan(0);
  expect(Object.keys(await loadPage())).not.toContain("needsGrade");
}, 600_000);

it("shows the empty state's data (null) once the campaign's gold items are removed", async () => {
  await t.db.execute(sql`delete from campaign_truth`);
  expect((await loadPage()).gold).toBeNull();
});
