import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { adjudicate, exportCampaign, loadCampaignData } from "./campaign-data";
import {
  campaignResults,
  disagreementsOf,
  labelsOf,
  learningCurve,
} from "../../scripts/judgement/campaign-results";
import { parseQrels } from "../../scripts/eval/trec";
import { aggregateGrade } from "../../scripts/judgement/labels";

let t: TestDatabase;
let campaignId = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 40, candidates: 400, seed: "labels-test" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
});
afterAll(() => t.drop());

describe("campaign labels", () => {
  it("exports aggregated qrels (rel = grade − 1) that trec tools read back", async () => {
    const data = await loadCampaignData(t.db, campaignId);
    const file = await exportCampaign(t.db, campaignId, "qrels");
    const qrels = parseQrels(file.body);
    const labels = labelsOf(data.pairs);
    expect([...qrels.values()].reduce((n, m) => n + m.size, 0)).toBe(
      [...labels.values()].reduce((n, m) => n + m.size, 0),
    );
    const pair = data.pairs.find((p) => p.grades.filter((g) => g.grade !== null).length === 3)!;
    expect(qrels.get(pair.proposal)!.get(pair.candidate)).toBe(
      aggregateGrade(pair.grades.map((g) => g.grade))! - 1,
    );
  });

  it("lets an adjudicated grade override the median, keeping the raw grades", async () => {
    const data = await loadCampaignData(t.db, campaignId);
    const [pair] = disagreementsOf(data.pairs);
    expect(pair).toBeDefined();
    const [admin] = await t.db.execute<{ id: number; name: string; email: string }>(
      sql`select id, name, email from users where 'admin' = any(roles) limit 1`,
    );
    const final = aggregateGrade(pair.grades.map((g) => g.grade)) === 4 ? 1 : 4;
    await adjudicate(t.db, admin, campaignId, pair.itemId, final, "checked the profile");
    const after = await loadCampaignData(t.db, campaignId);
    const same = after.pairs.find((p) => p.itemId === pair.itemId)!;
    expect(same.grades).toEqual(pair.grades);
    expect(labelsOf(after.pairs).get(pair.proposal)!.get(pair.candidate)).toBe(final - 1);
    await expect(adjudicate(t.db, admin, campaignId, 999_999, 2, "")).rejects.toMatchObject({ status: 404 });
  });

  it("exports per-rater CSV with pseudonymous experts, never names or emails", async () => {
    const file = await exportCampaign(t.db, campaignId, "csv");
    expect(file.body.split(/\r?\n/)[0]).toBe("proposal,candidate,expert,grade,rationale,position,time_ms");
    expect(file.body).toMatch(/,E-[0-9a-f]{8},/);
    expect(file.body).not.toMatch(/@assay\.local|Erin|Emil|Esra/);
  });

  it("computes nDCG per system with intervals, and a learning curve that reaches full agreement with all raters", async () => {
    const data = await loadCampaignData(t.db, campaignId);
    const results = campaignResults(data, { B: 200, seed: 1 });
    const [baseline, challenger] = results.systems;
    expect(baseline.key).toBe("baseline");
    expect(challenger.overall.measures["nDCG@10"].value!).toBeGreaterThan(0);
    expect(baseline.overall.measures["Judged@10"].value!).toBeGreaterThan(0.9);
    expect(results.comparison!.pairs[0]).toMatchObject({ a: "baseline", b: "challenger" });
    const curve = learningCurve(data, { samples: 20, seed: 2 });
    expect(curve.map((c) => c.raters)).toEqual([1, 2, 3]);
    expect(curve[2].labelAgreement).toBe(1);
    expect(curve[0].labelAgreement).toBeLessThan(1);
  });
});
