import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { runAssay } from "../../test/run-cli";
import { seedDemo } from "../../scripts/demo/seed";
import {
  compareSnapshots,
  createSnapshot,
  getSnapshot,
  listSnapshots,
  snapshotCsv,
  snapshotDocument,
} from "./snapshots";
import { computeResult } from "../results/compute";
import { parameterSummary } from "../../scripts/results/compare";
import { dataWindow, kindVersion } from "../results/version";
import { offlineReportInput, offlineResult } from "../results/offline";
import { offlineReport } from "../../scripts/offline/report";
import { canonicalJson, sha256 } from "../../scripts/lib/canonical";
import { getExperiment } from "../experiments/experiments";
import { exportEvents } from "../experiments/events";
import { onlineReport } from "../../scripts/online/report";
import type { OnlineEvent } from "../../scripts/online/events";
import { expertAssignments, saveGrade, taskView } from "../campaigns/campaigns";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "snapshot-test" });
});
afterAll(() => t.drop());

describe("snapshots", () => {
  it("recomputing with the same parameters on unchanged data gives the same sha256", async () => {
    const first = await computeResult(t.db, { kind: "offline", ks: [5, 10], B: 200, seed: "s" });
    // Computed again outside the result service (whose cache would hand back the same object).
    const input = await offlineReportInput(t.db, { campaign: first.parameters.campaign });
    const again = offlineReport(input, { ks: [5, 10], B: 200, seed: "s" });
    // The fairness section is frozen beside the report (db/results/fairness-tiers.test.ts checks it).
    const { fairness, ...report } = first.result as Record<string, unknown>;
    expect(fairness).toBeDefined();
    expect(sha256(canonicalJson(again))).toBe(sha256(canonicalJson(report)));
    const other = await computeResult(t.db, { kind: "offline", ks: [5, 10], B: 200, seed: "another" });
    expect(sha256(canonicalJson(other.result))).not.toBe(sha256(canonicalJson(first.result)));
  });

  it("freezing is idempotent: the same parameters on unchanged data return the snapshot already made", async () => {
    const count = async () => (await listSnapshots(t.db)).length;
    const audits = async () =>
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from audit_log where action = 'snapshot.create'`,
        )
      )[0].n;
    const [rowsBefore, auditsBefore] = [await count(), await audits()];
    const first = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 150, seed: "idem" });
    expect(first.created).toBe(true);
    expect(first.sha256).toBe(sha256(canonicalJson(first.result)));
    // Spelled out or left to the defaults, the parameters are the same ones.
    const again = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 150, seed: "idem" });
    expect([again.id, again.created]).toEqual([first.id, false]);
    // Two at once (a double-click reaching the server twice): one row, one audit entry.
    const both = await Promise.all(
      [1, 2].map(() => createSnapshot(t.db, "cli", { kind: "offline", ks: [5], B: 150, seed: "idem" })),
    );
    expect(both[0].id).toBe(both[1].id);
    expect(both.filter((s) => s.created)).toHaveLength(1);
    expect([await count(), await audits()]).toEqual([rowsBefore + 2, auditsBefore + 2]);
    // Another seed is another snapshot; so is the same one after the data changed.
    expect(
      (await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 150, seed: "idem-2" })).id,
    ).not.toBe(first.id);
    await t.db
      .execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id)
      select 'idem-event', id, 'click', now(), 'A', 'u', 's', 'p', 'c' from experiments limit 1`);
    // The offline report reads no events: an event is no change to it, and the same freeze is the same snapshot.
    const request = { kind: "offline" as const, ks: [5, 10], B: 150, seed: "idem" };
    expect((await createSnapshot(t.db, "cli", request)).id).toBe(first.id);
    // An import is: a proposal updated moves the window the offline report reads.
    await t.db.execute(
      sql`update proposals set updated_at = now() where id = (select min(id) from proposals)`,
    );
    const afterChange = await createSnapshot(t.db, "cli", request);
    expect(afterChange.created).toBe(true);
    expect(afterChange.id).not.toBe(first.id);
    // It records what it reads: the catalog's window, and the ratings its ground-truth section reads.
    expect(Object.keys(afterChange.dataWindow as object).sort()).toEqual([
      "latestImport",
      "latestRating",
      "listItems",
      "ratings",
    ]);
  });

  it("freezes the offline report while an expert saves grades: the report on the grades it read, as recomputed", async () => {
    const [expert] = await t.db.execute<{ id: number }>(
      sql`select id from users where email = 'expert@assay.local'`,
    );
    const [task] = (await expertAssignments(t.db, expert.id)).filter((a) => a.status === "running");
    // The expert starts afresh, so each save below adds a rating (none rewrites one the freeze may have read).
    await t.db.execute(sql`delete from ratings where assignment_id = ${task.id}`);
    const cards = (await taskView(t.db, expert.id, task.id)).cards;
    expect(cards.length).toBeGreaterThanOrEqual(4);
    let next = 0;
    const gradeNext = () => {
      const i = next++;
      return saveGrade(t.db, expert.id, task.id, {
        item: cards[i].id,
        grade: (["4", "1", "3", "2"] as const)[i % 4],
        rationale: "",
        position: i + 1,
        timeSpentMs: 1000,
      });
    };
    // Grades keep arriving, one after another, on the first half of the cards while the freeze reads; the
    // second half is graded during the computation itself, after the read, whatever the timing.
    const half = Math.floor(cards.length / 2);
    let done = false;
    const grading = (async () => {
      while (!done && next < half) await gradeNext();
    })();
    // A freeze may run several heavy tasks (the report, then its fairness section): the first one starts
    // the computation.
    const during = { start: -1, end: 0 };
    const watched: HeavyRunner = async (heavy, input) => {
      if (during.start < 0) during.start = next;
      const out = await runInProcess(heavy, input);
      await grading;
      while (next < cards.length) await gradeNext();
      during.end = next;
      return out;
    };
    const frozen = await createSnapshot(
      t.db,
      "cli",
      { kind: "offline", B: 400, seed: "while-grading" },
      watched,
    ).finally(() => (done = true));
    expect(frozen.created).toBe(true);
    expect(during.end).toBeGreaterThan(during.start);
    expect((frozen.result as { groundTruth?: unknown }).groundTruth).toBeTruthy();
    // The grades saved since do change the report: recomputed now, its ground-truth section differs.
    const request = { kind: "offline" as const, B: 400, seed: "while-grading" };
    const now = await computeResult(t.db, request);
    expect(sha256(canonicalJson(now.result))).not.toBe(frozen.sha256);
    // The snapshot records the ratings it read; undo those saved after that read, and the report
    // recomputed on that data equals the snapshot in every figure of every section.
    const window = frozen.dataWindow as { ratings: number; latestRating: string };
    await t.db.execute(
      sql`delete from ratings where assignment_id = ${task.id} and updated_at > ${window.latestRating}::timestamptz`,
    );
    expect((await dataWindow(t.db)).ratings).toBe(window.ratings);
    const again = await computeResult(t.db, request);
    expect(canonicalJson(again.result)).toBe(canonicalJson(frozen.result));
    expect(sha256(canonicalJson(again.result))).toBe(frozen.sha256);
  });

  it("freezes the report on screen while an expert keeps saving a grade, computing nothing again (issue 22)", async () => {
    const [expert] = await t.db.execute<{ id: number }>(
      sql`select id from users where email = 'expert@assay.local'`,
    );
    const [task] = (await expertAssignments(t.db, expert.id)).filter((a) => a.status === "running");
    const [card] = (await taskView(t.db, expert.id, task.id)).cards;
    let saves = 0;
    // The expert's autosave: the same grade, a rationale growing as they type.
    const save = () =>
      saveGrade(t.db, expert.id, task.id, {
        item: card.id,
        grade: "3",
        rationale: `Works on this${"!".repeat(saves++)}`,
        position: 1,
        timeSpentMs: 1000,
      });
    await save();
    const computed: string[] = [];
    const counting: HeavyRunner = (heavy, input, progress) => {
      computed.push(heavy);
      return runInProcess(heavy, input, progress);
    };
    const request = { kind: "offline" as const, B: 150, seed: "grading-meanwhile" };
    // The analyst's page: the report and its fairness section, as the /analyst loader asks for them.
    const page = await offlineResult(t.db, request, counting, { fairness: {} });
    expect(computed.sort()).toEqual(["fairnessReport", "offlineReport"]);
    const before = (await kindVersion(t.db, "offline")).window;
    // Saves before the freeze (the data version moves) and while it runs.
    for (let i = 0; i < 3; i++) await save();
    let done = false;
    const grading = (async () => {
      while (!done) await save();
    })();
    const frozen = await createSnapshot(t.db, "cli", request, counting).finally(() => (done = true));
    await grading;
    expect(frozen.created).toBe(true);
    // The freeze saw newer ratings than the page did, and computed nothing: the page's report is frozen.
    expect((frozen.dataWindow as { latestRating: string }).latestRating).not.toBe(before.latestRating);
    expect(computed).toHaveLength(2);
    const { fairness, ...report } = frozen.result as Record<string, unknown>;
    expect(canonicalJson(report)).toBe(canonicalJson(page.result));
    expect(canonicalJson(fairness)).toBe(canonicalJson(page.fairness));
    // Computed anew outside the result service now that nobody grades: the same figures.
    const quiet = offlineReport(await offlineReportInput(t.db, {}), { B: 150, seed: "grading-meanwhile" });
    expect(canonicalJson(quiet)).toBe(canonicalJson(report));
  });

  it("freezes the offline report on the data it read even while an import changes it; a freeze after is another", async () => {
    const before = await kindVersion(t.db, "offline");
    const changeLists: HeavyRunner = async (task, input) => {
      await t.db.execute(
        sql`update proposals set updated_at = now() where id = (select max(id) from proposals)`,
      );
      return runInProcess(task, input);
    };
    const frozen = await createSnapshot(
      t.db,
      "cli",
      { kind: "offline", B: 100, seed: "moving" },
      changeLists,
    );
    expect(frozen.created).toBe(true);
    // Its window is the one it read, before the import, not the one after.
    expect(frozen.dataWindow).toEqual(before.window);
    const after = await createSnapshot(t.db, "cli", { kind: "offline", B: 100, seed: "moving" });
    expect(after.created).toBe(true);
    expect(after.dataWindow).not.toEqual(frozen.dataWindow);
  });

  it("freezes an offline report with a committee cap from the CLI, recorded in its parameters", async () => {
    const run = await runAssay(
      [
        "snapshot",
        "create",
        "--kind",
        "offline",
        "--max-committee",
        "5",
        "--bootstrap",
        "50",
        "--seed",
        "cap",
      ],
      { DATABASE_URL: t.url },
    );
    expect(run.code).toBe(0);
    const [latest] = await listSnapshots(t.db);
    expect(latest.parameters).toMatchObject({ maxCommittee: 5, B: 50, seed: "cap" });
    const frozen = await getSnapshot(t.db, latest.id);
    expect((frozen.result as { committeeCap?: unknown }).committeeCap).toEqual({ max: 5, dropped: [] });
  }, 120_000);

  it("still refuses an online freeze whose events changed during the computation, writing nothing", async () => {
    const count = async () => (await listSnapshots(t.db)).length;
    const before = await count();
    // One event arrives during the first of the freeze's heavy tasks (the report, then its composition).
    let added = false;
    const addEvent: HeavyRunner = async (task, input) => {
      if (!added)
        await t.db
          .execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id)
        select 'moving-event', id, 'click', now(), 'A', 'u', 's', 'p', 'c' from experiments where key = 'reviewer-ranker-v2'`);
      added = true;
      return runInProcess(task, input);
    };
    await expect(
      createSnapshot(t.db, "cli", { kind: "online", experiment: "reviewer-ranker-v2", B: 100 }, addEvent),
    ).rejects.toMatchObject({ status: 409 });
    expect(await count()).toBe(before);
  });

  it("defaults to the seed of the result's own page: the experiment's, and campaign-<id>", async () => {
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const [{ id: campaign }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
    expect(
      (await computeResult(t.db, { kind: "online", experiment: experiment.key, B: 100 })).parameters,
    ).toMatchObject({ seed: experiment.seed, B: 100 });
    expect((await computeResult(t.db, { kind: "expert", campaign, B: 100 })).parameters).toMatchObject({
      seed: `campaign-${campaign}`,
      ks: [5, 10, 20],
    });
    // An expert result holds the campaign's gold figures: learning curves of 1,000 Dawid–Skene draws take a while.
  }, 180_000);

  it("compares two snapshots of one kind, and refuses two kinds with a sentence", async () => {
    const a = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100, seed: "cmp-a" });
    const b = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 100, seed: "cmp-a" });
    const { figures, parameters } = compareSnapshots(a, b);
    // The figures at K = 10 are in both, equal; those at K = 5 only in the second.
    expect(figures.some((r) => r.measure === "Success@10" && r.a !== null && r.changes.length === 0)).toBe(
      true,
    );
    expect(
      figures.some(
        (r) => r.measure === "Success@5" && r.a === null && r.b !== null && r.changes[0] === "missing",
      ),
    ).toBe(true);
    expect(parameters.filter((p) => p.differs).map((p) => p.name)).toEqual(["ks", "result sha256"]);
    const same = compareSnapshots(a, a);
    expect(same.figures.every((r) => r.changes.length === 0)).toBe(true);
    expect(same.parameters.every((p) => !p.differs)).toBe(true);
    const online = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      B: 100,
    });
    expect(() => compareSnapshots(a, online)).toThrow(
      "An offline snapshot cannot be compared with an online one; pick two of the same kind.",
    );
    expect(() => compareSnapshots(online, a)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it("compares intervals and parameters: two offline snapshots differing only in B differ in interval rows", async () => {
    const a = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100, seed: "only-b" });
    const b = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 150, seed: "only-b" });
    const { figures, parameters } = compareSnapshots(a, b);
    // The parameters: B and the result's hash differ, nothing else (same seed, cutoffs, data window).
    expect(parameters.filter((p) => p.differs)).toEqual([
      { name: "B", a: "100", b: "150", differs: true },
      { name: "result sha256", a: a.sha256, b: b.sha256, differs: true },
    ]);
    expect(parameters.find((p) => p.name === "seed")).toMatchObject({ a: "only-b", differs: false });
    // The snapshot list's one-line summary of the settings, B and seed first.
    expect(parameterSummary(b.parameters)).toBe("B 150 · seed only-b · ks [10]");
    // Point estimates do not depend on B; their bootstrap intervals do.
    const withInterval = figures.filter((r) => r.a?.lower != null);
    expect(withInterval.length).toBeGreaterThan(0);
    expect(figures.some((r) => r.changes.includes("value"))).toBe(false);
    const intervalRows = figures.filter((r) => r.changes.includes("interval"));
    // (Some intervals are not bootstrapped, or are degenerate, and stay the same: 90 of 108 differ here.)
    expect(intervalRows.length).toBeGreaterThan(0);
    for (const row of intervalRows) {
      expect(row.a!.value).toBe(row.b!.value);
      expect([row.a!.lower, row.a!.upper]).not.toEqual([row.b!.lower, row.b!.upper]);
    }
    // Figures without an interval (counts, shares without a bootstrap) never read as changed.
    expect(figures.filter((r) => r.a?.lower == null).every((r) => r.changes.length === 0)).toBe(true);
  });

  it("is immutable: the database refuses updates, deletes and truncation", async () => {
    const s = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100 });
    // drizzle wraps the database's error; its own message is the cause's.
    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => "accepted",
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(await refusal(t.db.execute(sql`update snapshots set sha256 = 'x' where id = ${s.id}`))).toBe(
      `snapshots are immutable: snapshot ${s.id} cannot be changed or deleted`,
    );
    expect(await refusal(t.db.execute(sql`delete from snapshots where id = ${s.id}`))).toBe(
      `snapshots are immutable: snapshot ${s.id} cannot be changed or deleted`,
    );
    expect(await refusal(t.db.execute(sql`truncate snapshots`))).toBe(
      "snapshots are immutable: the table cannot be truncated",
    );
    expect((await getSnapshot(t.db, s.id)).sha256).toBe(s.sha256);
  });

  it("freezes online and expert results too, and exports them as assay.snapshot/v1 JSON and CSV", async () => {
    const online = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      B: 100,
    });
    const [{ id: campaign }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
    const expert = await createSnapshot(t.db, "cli", { kind: "expert", campaign, B: 100 });
    const doc = snapshotDocument(online);
    expect(doc).toMatchObject({
      schema: "assay.snapshot/v1",
      kind: "online",
      sha256: online.sha256,
      parameters: { experiment: "reviewer-ranker-v2", B: 100 },
    });
    expect(snapshotCsv(online).split("\r\n")[0]).toBe("system_or_arm,group,measure,value,ci_lower,ci_upper");
    expect(snapshotCsv(online)).toMatch(/\r\nB,vs A,ctr difference,/);
    expect(snapshotCsv(expert)).toMatch(/\r\nchallenger,overall,nDCG@10,0\.\d+/);
    await expect(createSnapshot(t.db, "cli", { kind: "online", experiment: "nope" })).rejects.toMatchObject({
      status: 404,
    });
    // The frozen online result is `assay online` on the stored events, plus the daily series its charts need.
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const events: OnlineEvent[] = [];
    for await (const page of exportEvents(t.db, experiment)) events.push(...page);
    // The composition of adopted candidates by arm is checked in db/results/fairness-tiers.test.ts.
    const {
      daily,
      experiment: named,
      decisions,
      composition,
      ...report
    } = online.result as Record<string, unknown>;
    expect(composition).toBeDefined();
    expect(named).toEqual({ key: experiment.key, name: experiment.name });
    // The analysis settings in force are frozen with the GrowthBook-style figures.
    expect(decisions).toMatchObject({ analysis: { engine: "frequentist", cuped: false, prePeriodDays: 28 } });
    expect(report).toEqual(
      JSON.parse(
        canonicalJson(
          onlineReport(events, {
            weights: { A: 0.5, B: 0.5 },
            control: "A",
            intervals: true,
            B: 100,
            seed: experiment.seed,
          }),
        ),
      ),
    );
    expect((daily as unknown[]).length).toBeGreaterThan(1);
  }, 180_000);

  it("records the data window, which moves when data changes", async () => {
    const before = await dataWindow(t.db);
    await t.db
      .execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id)
      select 'new-event', id, 'click', now(), 'A', 'u', 's', 'p', 'c' from experiments limit 1`);
    const after = await dataWindow(t.db);
    expect(after.events).toBe(before.events + 1);
    expect(after.latestEvent).not.toBe(before.latestEvent);
  });
});
