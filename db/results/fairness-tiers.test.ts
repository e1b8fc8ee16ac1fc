import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { canonicalJson } from "../../scripts/lib/canonical";
import { gradesByGroup } from "../../scripts/fairness/composition";
import { aggregateGrade } from "../../scripts/judgement/labels";
import { getCampaign } from "../campaigns/campaigns";
import { loadCampaignData } from "../campaigns/campaign-data";
import { loadCandidateAttributes } from "../catalog/candidate-attributes";
import { createSnapshot, getSnapshot } from "../snapshots/snapshots";
import { campaignResult } from "./campaign";

/** The fairness figures of the expert and online tiers (issue 27) as the pages and snapshots get them. */
let t: TestDatabase;
let campaignId = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "fairness-tiers" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(
    sql`select id from campaigns order by id limit 1`,
  );
}, 180_000);
afterAll(() => t.drop());

describe("grades by group (the expert tier)", () => {
  it("gives the campaign page each group's share among pairs graded 3–4, from the pairs' labels", async () => {
    const campaign = (await getCampaign(t.db, campaignId))!;
    const page = await campaignResult(t.db, campaign, { B: 200 }, runInProcess);
    const figures = page.gradesByGroup!;
    expect(figures.minGroup).toBe(5);
    expect(Object.keys(figures.attributes).sort()).toEqual(["career_stage", "country", "gender"]);
    // Recomputed here from the campaign's graded pairs: the median grade (or the adjudicated one).
    const data = await loadCampaignData(t.db, campaignId, {});
    const pairs = data.pairs.flatMap((p) => {
      const grade = aggregateGrade(
        p.grades.map((g) => g.grade),
        p.adjudicated,
      );
      return grade === null ? [] : [{ proposal: p.proposal, candidate: p.candidate, grade }];
    });
    const direct = gradesByGroup({
      pairs,
      attributes: await loadCandidateAttributes(t.db),
      bootstrap: { B: 200, seed: page.parameters.seed },
    });
    expect(figures.attributes).toEqual(direct);
    const women = figures.attributes.gender.groups.f;
    expect(women.graded!.value).toBeGreaterThan(0);
    expect(women.graded!.ci!.lower).toBeLessThanOrEqual(women.graded!.value!);
    expect(women.graded!.ci!.upper).toBeGreaterThanOrEqual(women.graded!.value!);
    expect(figures.attributes.gender.highPairs).toBe(pairs.filter((p) => p.grade >= 3).length);
  }, 180_000);

  it("freezes grades by group in the campaign's snapshot, equal to the live figures", async () => {
    const campaign = (await getCampaign(t.db, campaignId))!;
    const frozen = await createSnapshot(t.db, "cli", { kind: "expert", campaign: campaignId, B: 100 });
    const read = (await getSnapshot(t.db, frozen.id)).result as { gradesByGroup: unknown };
    const live = await campaignResult(t.db, campaign, { B: 100 }, runInProcess);
    expect(read.gradesByGroup).toEqual(JSON.parse(canonicalJson(live.gradesByGroup)));
    expect(read.gradesByGroup).not.toBeNull();
  }, 180_000);
});
