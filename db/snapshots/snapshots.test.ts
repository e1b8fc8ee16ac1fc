import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
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
import { dataWindow } from "../results/version";
import { offlineReportInput } from "../results/offline";
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
    expect(Object.keys(afterChange.dataWindow as object).sort()).toEqual(["latestImport", "listItems"]);
  });

  it("freezes the offline report while an expert saves grades, which only its ground-truth section reads", async () => {
    const [expert] = await t.db.execute<{ id: number }>(
      sql`select id from users where email = 'expert@assay.local'`,
    );
    const [task] = (await expertAssignments(t.db, expert.id)).filter((a) => a.status === "running");
    const cards = (await taskView(t.db, expert.id, task.id)).cards;
    let done = false;
    let saved = 0;
    const grading = (async () => {
      // Grades keep arriving, one after another, for as long as the freeze takes.
      for (let i = 0; !done; i++) {
        const card = cards[i % cards.length];
        const grade = (["1", "2", "3", "4"] as const)[i % 4];
        await saveGrade(t.db, expert.id, task.id, {
          item: card.id,
          grade,
          rationale: "",
          position: (i % cards.length) + 1,
          timeSpentMs: 1000,
        });
        saved++;
      }
    })();
    // Counts the grades saved while the report is computed (between the freeze's two reads of the data).
    const during = { start: 0, end: 0 };
    const watched: HeavyRunner = async (task, input) => {
      during.start = saved;
      const out = await runInProcess(task, input);
      // Let at least one more grade land before the freeze reads the data again.
      const target = saved + 1;
      while (saved < target) await new Promise((resolve) => setTimeout(resolve, 5));
      during.end = saved;
      return out;
    };
    const frozen = await createSnapshot(
      t.db,
      "cli",
      { kind: "offline", B: 400, seed: "while-grading" },
      watched,
    ).finally(() => (done = true));
    await grading;
    expect(frozen.created).toBe(true);
    expect(during.end).toBeGreaterThan(during.start);
    // And it is the report on this data: computed again, the same figures, but for the grades section,
    // which reads the running campaign's grades as they were once (they have changed since).
    const again = await computeResult(t.db, { kind: "offline", B: 400, seed: "while-grading" });
    const withoutGrades = (r: unknown) => canonicalJson({ ...(r as object), groundTruth: null });
    expect(withoutGrades(again.result)).toBe(withoutGrades(frozen.result));
    expect((frozen.result as { groundTruth?: unknown }).groundTruth).toBeDefined();
  });

  it("still refuses a freeze whose own inputs changed during the computation, writing nothing", async () => {
    const count = async () => (await listSnapshots(t.db)).length;
    const before = await count();
    const changeLists: HeavyRunner = async (task, input) => {
      await t.db.execute(
        sql`update proposals set updated_at = now() where id = (select max(id) from proposals)`,
      );
      return runInProcess(task, input);
    };
    await expect(
      createSnapshot(t.db, "cli", { kind: "offline", B: 100, seed: "moving" }, changeLists),
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
