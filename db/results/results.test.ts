import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo, DEMO_EXPERIMENT } from "../../scripts/demo/seed";
import { runInProcess, type HeavyInput, type HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { getCampaign } from "../campaigns/campaigns";
import { offlineResult } from "./offline";
import { onlineResult } from "./online";
import { campaignResult } from "./campaign";
import { computeResult } from "./compute";
import { inputVersion, kindVersion } from "./version";

/**
 * The result service keeps each result by its settings and input version: a second view of unchanged
 * data computes nothing, a change of data is seen on the next view, and other settings are other results.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 20, candidates: 200, seed: "result-service" });
});
afterAll(() => t.drop());

/** A runner that counts the heavy tasks it runs. */
function counting() {
  const runs: string[] = [];
  const run: HeavyRunner = (task, input) => {
    runs.push(task);
    return runInProcess(task, input);
  };
  return { run, runs };
}

describe("the result service", () => {
  it("serves a second view of unchanged data without computing, and a changed one anew", async () => {
    const { run, runs } = counting();
    const first = await offlineResult(t.db, { B: 100, seed: "cache" }, run);
    const second = await offlineResult(t.db, { B: 100, seed: "cache" }, run);
    expect(runs).toEqual(["offlineReport"]);
    expect(second.result).toBe(first.result);
    // Other settings are another result.
    await offlineResult(t.db, { B: 100, seed: "other" }, run);
    expect(runs).toHaveLength(2);
    // A committee member removed (as a re-import of committees does): the next view recomputes.
    await t.db.execute(
      sql`delete from gold_members where (proposal_id, candidate_id) in (select proposal_id, candidate_id from gold_members order by proposal_id, candidate_id limit 3)`,
    );
    const third = await offlineResult(t.db, { B: 100, seed: "cache" }, run);
    expect(runs).toHaveLength(3);
    expect(JSON.stringify(third.result)).not.toBe(JSON.stringify(first.result));
  });

  it("fills the defaults once: a page's settings and a snapshot's request give one result", async () => {
    const { run, runs } = counting();
    const page = await onlineResult(t.db, { experiment: DEMO_EXPERIMENT }, run);
    const frozen = await computeResult(
      t.db,
      { kind: "online", experiment: DEMO_EXPERIMENT, B: page.parameters.B, seed: page.parameters.seed },
      run,
    );
    // The snapshot adds the composition of adopted candidates by arm (the page's section computes the same).
    expect(runs).toEqual(["onlineReport", "adoptedComposition"]);
    expect(page.parameters).toMatchObject({ B: 1000, intervals: "fixed" });
    expect(frozen.result).toMatchObject(page.report!);
  });

  it("shares one gold computation between a campaign's pages, forgets a failed one, and sees a changed grade", async () => {
    const [{ id }] = await t.db.execute<{ id: number }>(
      sql`select id from campaigns where status <> 'draft' order by id limit 1`,
    );
    const campaign = (await getCampaign(t.db, id))!;
    const runs: string[] = [];
    let failGold = true;
    // Few learning-curve draws keep the gold figures quick; the first gold run fails, as a full pool does.
    const run: HeavyRunner = (task, input) => {
      runs.push(task);
      if (task !== "goldFigures") return runInProcess(task, input);
      if (failGold) return ((failGold = false), Promise.reject(new Error("the gold pool is full")));
      const gold = input as HeavyInput<"goldFigures">;
      return runInProcess(task, { ...gold, options: { ...gold.options, draws: 5 } } as typeof input);
    };
    const failed = await campaignResult(t.db, campaign, {}, run);
    expect(failed.goldReady).toBeUndefined();
    await expect(failed.goldFigures()).rejects.toThrow("the gold pool is full");
    // The analyst's page and the admin's (names) keep their own figures and share one gold computation.
    const page = await campaignResult(t.db, campaign, {}, run);
    const gold = await page.goldFigures();
    const admin = await campaignResult(t.db, campaign, { names: true }, run);
    const again = await campaignResult(t.db, campaign, {}, run);
    expect(again.results).toBe(page.results);
    expect(again.goldReady).toEqual(gold);
    expect(Object.keys(admin.goldReady!.raters)).not.toEqual(Object.keys(gold!.raters));
    // Grades by group are computed once, shared by the analyst's and the admin's pages.
    expect(runs).toEqual([
      "campaignFigures",
      "gradesByGroup",
      "goldFigures",
      "goldFigures",
      "campaignFigures",
    ]);
    // An expert changes a grade (saving a grade sets its updated_at): the next view computes anew.
    await t.db.execute(
      sql`update ratings set grade = case when grade = 3 then 2 else 3 end, updated_at = now() + interval '1 second'
          where item_id = (select min(item_id) from ratings where grade is not null)`,
    );
    const changed = await campaignResult(t.db, campaign, {}, run);
    await changed.goldFigures();
    expect(runs.slice(5)).toEqual(["campaignFigures", "gradesByGroup", "goldFigures"]);
    expect(JSON.stringify(changed.agreement)).not.toBe(JSON.stringify(page.agreement));
  });

  it("gives an interleaving experiment's admin page its sessions, and freezes its interleaving figures, not an A/B result", async () => {
    const [{ key }] = await t.db.execute<{ key: string }>(
      sql`select key from experiments where kind = 'interleaving' order by id limit 1`,
    );
    const page = await onlineResult(t.db, { experiment: key }, runInProcess);
    expect(page.perArm.size).toBeGreaterThan(0);
    const { parameters, result } = await computeResult(t.db, { kind: "online", experiment: key });
    expect(parameters).toMatchObject({ kind: "online", experiment: key, method: "team-draft" });
    expect(result).toMatchObject({ interleaving: { method: "team-draft" } });
    expect(result).not.toHaveProperty("comparisons");
  });

  it("sees an assignment scoped to chosen pairs anew, though only its scope rows were written", async () => {
    // Asking for more grades of a pair an expert's open scoped assignment lacks writes a scope row and
    // nothing else (db/campaigns/grade-requests.ts, writePlan): the page's "n of m" must follow.
    const [{ id, assignment, item }] = await t.db.execute<{ id: number; assignment: number; item: number }>(
      sql`select a.campaign_id as id, a.id as assignment, min(i.id) as item from campaign_assignments a
          join campaign_items i on i.campaign_id = a.campaign_id and i.proposal_id = a.proposal_id
          where not exists (select 1 from ratings r where r.assignment_id = a.id)
          group by a.id order by a.id limit 1`,
    );
    const campaign = (await getCampaign(t.db, id))!;
    const totalOf = async () =>
      (await campaignResult(t.db, campaign, { names: true }, runInProcess)).assignments.find(
        (a) => a.assignmentId === assignment,
      )!;
    expect(await totalOf()).toMatchObject({ scoped: false });
    const [expert, online] = [await kindVersion(t.db, "expert"), await kindVersion(t.db, "online")];
    await t.db.execute(
      sql`insert into campaign_assignment_items (assignment_id, item_id) values (${assignment}, ${item})`,
    );
    expect(await totalOf()).toMatchObject({ scoped: true, total: 1 });
    // A snapshot of the campaign sees the change; one of an experiment, which reads no assignment, does not.
    expect(await kindVersion(t.db, "expert")).not.toEqual(expert);
    expect(await kindVersion(t.db, "online")).toEqual(online);
  });

  it("versions every table a result reads: a new system or gold item moves it", async () => {
    const before = await inputVersion(t.db);
    await t.db.execute(sql`insert into systems (key, name) values ('version-probe', 'Probe')`);
    const after = await inputVersion(t.db);
    expect(after.tables.systems).not.toBe(before.tables.systems);
    expect(after.window).toEqual(before.window);
  });
});
