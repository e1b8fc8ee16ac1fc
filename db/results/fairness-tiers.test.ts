import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { canonicalJson } from "../../scripts/lib/canonical";
import { gradesByGroup } from "../../scripts/fairness/composition";
import { aggregateGrade } from "../../scripts/judgement/labels";
import { getCampaign } from "../campaigns/campaigns";
import { loadCampaignData } from "../campaigns/campaign-data";
import { loadCandidateAttributes } from "../catalog/candidate-attributes";
import { compareSnapshots, createSnapshot, getSnapshot, snapshotRows } from "../snapshots/snapshots";
import { campaignResult } from "./campaign";
import { compositionResult } from "./online-composition";
import { onlineResult } from "./online";
import { getExperiment } from "../experiments/experiments";
import { ExperimentError } from "../experiments/experiments";
import { updateAnalysisSettings } from "../experiments/analysis-settings";
import { sqlStreamTotals } from "../experiments/online-sql";
import { guardrailUnits } from "../../scripts/online/guardrails";
import { DEMO_INTERLEAVING } from "../../scripts/demo/interleaving";
import { fairnessReport } from "../../scripts/fairness/report";
import { loadFairnessInput } from "../catalog/fairness-input";
import { loadGold } from "../catalog/offline-input";
import { fairnessResult } from "./fairness";
import { offlineResult } from "./offline";

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
    // The snapshot's CSV rows carry the figures too.
    const women = live.gradesByGroup!.attributes.gender.groups.f.graded!;
    expect(snapshotRows(frozen)).toContainEqual([
      "experts",
      "fairness:gender=f",
      "shareOfGraded",
      women.value,
      women.ci!.lower,
      women.ci!.upper,
    ]);
  }, 180_000);
});

describe("composition of adopted candidates (the online tier)", () => {
  const settings = async (key: string) => {
    const e = (await getExperiment(t.db, key))!;
    const { engine, cuped, prePeriodDays, priorMean, priorVariance, guardrails } = e;
    return { engine, cuped, prePeriodDays, priorMean, priorVariance: priorVariance ?? undefined, guardrails };
  };

  it("gives each group's share among each arm's adopted candidates, counted as the guardrails count them", async () => {
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const c = (await compositionResult(t.db, experiment, { B: 200, seed: "s" }, runInProcess))!;
    expect(c.by).toBe("arm");
    expect(c.arms).toEqual(["A", "B"]);
    // Adopted candidates per arm, as the report's per-session rules count them (units in two arms, sessions
    // without an impression left out).
    const units = guardrailUnits((await sqlStreamTotals(t.db, experiment)).guardrailSessions);
    for (const arm of ["A", "B"]) {
      const adopted = units.filter((u) => u.arm === arm).reduce((n, u) => n + (u.sums.coiShare?.d ?? 0), 0);
      expect(c.adopted[arm].candidates).toBe(adopted);
    }
    const women = c.attributes.gender.groups.f;
    const d = women.differences!.B;
    expect(d.value).toBeCloseTo(women.arms!.B.value! - women.arms!.A.value!, 12);
    expect(d.ci!.lower).toBeLessThanOrEqual(d.value!);
    expect(d.pValue).toBeGreaterThanOrEqual(0);
    // Shares of one arm over the groups of an attribute add up to 1 (no group is suppressed in gender).
    const total = Object.values(c.attributes.gender.groups).reduce((n, g) => n + (g.arms?.A.value ?? 0), 0);
    expect(total).toBeCloseTo(1, 12);
  }, 180_000);

  it("reads a share guardrail from the arm's interval, and refuses one naming an unknown attribute", async () => {
    const before = await settings("reviewer-ranker-v2");
    const bad = {
      ...before,
      guardrails: [{ metric: "share" as const, attribute: "genre", value: "f", min: 0.35 }],
    };
    const refusal = updateAnalysisSettings(t.db, "cli", "reviewer-ranker-v2", bad);
    await expect(refusal).rejects.toBeInstanceOf(ExperimentError);
    await expect(refusal).rejects.toThrow(
      /^guardrails: the attribute "genre" .* is unknown; known: career_stage, country, gender\.$/,
    );
    expect(await settings("reviewer-ranker-v2")).toEqual(before);
    const share = { metric: "share" as const, attribute: "gender", value: "f", min: 0.35 };
    await updateAnalysisSettings(t.db, "cli", "reviewer-ranker-v2", {
      ...before,
      // In place of the demo's own share guardrail (the same group and bound).
      guardrails: [...before.guardrails.filter((g) => g.metric !== "share"), share],
    });
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const c = (await compositionResult(t.db, experiment, { B: 200, seed: "s" }, runInProcess))!;
    const [reading] = c.guardrails;
    expect(reading).toMatchObject({ arm: "B", attribute: "gender", value: "f", min: 0.35 });
    const { lower, upper } = reading.share!.ci!;
    expect(reading.state).toBe(lower >= 0.35 ? "ok" : upper < 0.35 ? "failing" : "at risk");
    // The ratio guardrails are read as before, without the share guardrail.
    const online = await onlineResult(t.db, { experiment: experiment.key, B: 100 }, runInProcess);
    expect(online.guardrails.map((g) => g.metric)).not.toContain("share");
  }, 180_000);

  it("credits an interleaving experiment's adoptions to the team that placed the candidate", async () => {
    const experiment = (await getExperiment(t.db, DEMO_INTERLEAVING))!;
    const c = (await compositionResult(t.db, experiment, { B: 100, seed: "s" }, runInProcess))!;
    expect(c.by).toBe("team");
    expect(c.arms).toEqual(["baseline", "challenger"]);
    expect(c.control).toBe("baseline");
    expect(c.adopted.baseline.candidates + c.adopted.challenger.candidates).toBeGreaterThan(0);
  }, 180_000);

  it("freezes the composition by team in an interleaving experiment's snapshot, equal to the live figures", async () => {
    const experiment = (await getExperiment(t.db, DEMO_INTERLEAVING))!;
    const frozen = await createSnapshot(t.db, "cli", { kind: "online", experiment: experiment.key, B: 100 });
    const read = (await getSnapshot(t.db, frozen.id)).result as {
      composition: unknown;
      interleaving: unknown;
    };
    const live = await compositionResult(t.db, experiment, { B: 100, seed: experiment.seed }, runInProcess);
    expect(read.interleaving).toBeTruthy();
    expect(live!.by).toBe("team");
    expect(read.composition).toEqual(JSON.parse(canonicalJson(live)));
    // The snapshot's CSV rows carry each team's share beside the interleaving figures.
    const women = live!.attributes.gender.groups.f.arms!.challenger;
    expect(snapshotRows(frozen)).toContainEqual([
      "challenger",
      "fairness:gender=f",
      "shareOfAdopted",
      women.value,
      women.ci!.lower,
      women.ci!.upper,
    ]);
  }, 180_000);

  it("freezes the composition by arm in the experiment's snapshot, equal to the live figures", async () => {
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const frozen = await createSnapshot(t.db, "cli", { kind: "online", experiment: experiment.key, B: 100 });
    const read = (await getSnapshot(t.db, frozen.id)).result as { composition: unknown };
    const live = await compositionResult(t.db, experiment, { B: 100, seed: experiment.seed }, runInProcess);
    expect(read.composition).not.toBeNull();
    expect(read.composition).toEqual(JSON.parse(canonicalJson(live)));
    const d = live!.attributes.gender.groups.f.differences!.B;
    expect(snapshotRows(frozen)).toContainEqual([
      "B vs A",
      "fairness:gender=f",
      "shareOfAdopted difference",
      d.value,
      d.ci!.lower,
      d.ci!.upper,
    ]);
  }, 180_000);
});

describe("the offline page's fairness section", () => {
  it("sets each group against the gold committees and the analyst's target, with exposure per merit", async () => {
    const request = { ks: [5, 10], B: 200, seed: "s" };
    const targets = [{ attribute: "gender", value: "f", share: 0.4 }];
    const live = (await fairnessResult(t.db, { ...request, targets }, runInProcess))!;
    // The CLI's route to the same figures: the lists, attributes and gold committees, straight into the report.
    const input = await loadFairnessInput(t.db);
    const gold = await loadGold(t.db);
    const listed = new Set([...input.lists.values()].flatMap((m) => [...m.keys()]));
    const direct = fairnessReport({
      ...input,
      committees: new Map([...gold].filter(([p]) => listed.has(p)).map(([p, m]) => [p, [...m]])),
      targets: new Map([["gender", new Map([["f", 0.4]])]]),
      ks: [5, 10],
      minGroup: 5,
      bootstrap: { B: 200, seed: "s" },
    });
    expect(live.report).toEqual(direct);
    const women = live.report.challenger.attributes.gender.groups.f;
    expect(women.target).toBe(0.4);
    expect(women.figures.committees.value).toBeGreaterThan(0);
    expect(women.figures.exposurePerMeritRatio.ci).not.toBeNull();
    expect(live.parameters.targets).toEqual(targets);
  }, 180_000);

  it("freezes the page's targets with the fairness section: recorded, equal to the live figures, compared", async () => {
    const targets = [{ attribute: "gender", value: "f", share: 0.4 }];
    const request = { kind: "offline" as const, ks: [5, 10], B: 100, seed: "t" };
    const frozen = await createSnapshot(t.db, "cli", { ...request, targets });
    const stored = await getSnapshot(t.db, frozen.id);
    expect(stored.parameters).toMatchObject({ targets });
    const live = await fairnessResult(t.db, { ks: [5, 10], B: 100, seed: "t", targets }, runInProcess);
    expect((stored.result as { fairness: unknown }).fairness).toEqual(JSON.parse(canonicalJson(live)));
    expect(live!.report.challenger.attributes.gender.groups.f.target).toBe(0.4);
    expect(snapshotRows(stored)).toContainEqual([
      "challenger",
      "fairness:gender=f",
      "target",
      0.4,
      null,
      null,
    ]);
    // Another target is another snapshot, and the comparison names the setting and the figure that differ.
    const other = await createSnapshot(t.db, "cli", {
      ...request,
      targets: [{ attribute: "gender", value: "f", share: 0.5 }],
    });
    expect(other.id).not.toBe(frozen.id);
    const compared = compareSnapshots(stored, await getSnapshot(t.db, other.id));
    expect(compared.parameters.find((p) => p.name === "targets")).toMatchObject({ differs: true });
    const target = compared.figures.find(
      (f) => f.system === "challenger" && f.section === "fairness:gender=f" && f.measure === "target",
    );
    expect(target).toMatchObject({ a: { value: 0.4 }, b: { value: 0.5 }, changes: ["value"] });
  }, 180_000);

  it("freezes the fairness section in the offline snapshot, equal to the live figures", async () => {
    const frozen = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 100, seed: "f" });
    const read = (await getSnapshot(t.db, frozen.id)).result as { fairness: unknown };
    // The snapshot's report covers every system (no --systems given), as the page's default does.
    const live = await fairnessResult(t.db, { ks: [5, 10], B: 100, seed: "f" }, runInProcess);
    expect(read.fairness).not.toBeUndefined();
    expect(read.fairness).toEqual(JSON.parse(canonicalJson(live)));
    const top10 = live!.report.challenger.attributes.gender.groups.f.figures["share@10"];
    expect(snapshotRows(frozen)).toContainEqual([
      "challenger",
      "fairness:gender=f",
      "share@10",
      top10.value,
      top10.ci!.lower,
      top10.ci!.upper,
    ]);
  }, 180_000);
});

describe("the offline report's consistency", () => {
  it("reads the fairness section in the report's transaction: an attribute stored meanwhile is not in it", async () => {
    // While the report resamples (its inputs read, its transaction possibly still reading the section's),
    // another connection stores a new attribute for ten candidates.
    let stored = false;
    const storeWhileComputing: HeavyRunner = async (task, input, progress) => {
      if (task === "offlineReport" && !stored) {
        stored = true;
        await t.db.execute(sql`insert into candidate_attributes (candidate_id, attribute, value)
          select id, 'late', 'x' from candidates order by id limit 10`);
      }
      return runInProcess(task, input, progress);
    };
    try {
      const page = await offlineResult(
        t.db,
        { ks: [5, 10], B: 50, seed: "consistent" },
        storeWhileComputing,
        { fairness: {} },
      );
      expect(stored).toBe(true);
      expect(Object.keys(page.fairness!.report.challenger.attributes)).not.toContain("late");
      // The data as it is now has it: a section read after the report's transaction would.
      const after = await fairnessResult(t.db, { ks: [5, 10], B: 50, seed: "consistent" }, runInProcess);
      expect(Object.keys(after!.report.challenger.attributes)).toContain("late");
    } finally {
      await t.db.execute(sql`delete from candidate_attributes where attribute = 'late'`);
    }
  }, 180_000);
});
