import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { loadOfflineInput } from "../../db/catalog/offline-input";
import { getExperiment } from "../../db/experiments/experiments";
import { sqlStreamTotals } from "../../db/experiments/online-sql";
import { listCampaigns } from "../../db/campaigns/campaigns";
import { loadCampaignData } from "../../db/campaigns/campaign-data";
import { offlineReport, type OfflineInput } from "../../scripts/offline/report";
import { packOfflineInput } from "../../scripts/offline/pack";
import { reportFromTotals } from "../../scripts/online/report";
import { campaignResults, learningCurve } from "../../scripts/judgement/campaign-results";
import { agreementReport } from "../../scripts/judgement/agreement";
import { packStreamTotals } from "../../scripts/online/pack";
import { computeResult } from "../../db/results/compute";
import type { HeavyInput, HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { pairsNeedingGrades } from "../../scripts/workers/heavy-tasks";
import { createWorkerPool, type WorkerPool } from "./worker-pool.server";

let t: TestDatabase;
let pool: WorkerPool;
let input: OfflineInput;

beforeAll(async () => {
  t = await createTestDatabase();
  // A small demo: the tests compare figures computed two ways, which holds at any size; the full demo's
  // size made them take minutes on a loaded machine (issue 26, item 9).
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "worker-pool" });
  input = await loadOfflineInput(t.db);
  // At the event loop's priority: beside a busy machine's other work, a niced worker waits for minutes.
  pool = createWorkerPool({ threads: 1, maxQueue: 4, nice: 0 });
});
afterAll(async () => {
  await pool.close();
  await t.drop();
});

/**
 * `run` with few learning-curve draws for the gold figures (the page's 1,000 took minutes on a loaded
 * machine): the comparison holds at any number of draws.
 */
const fewDraws =
  (run: HeavyRunner): HeavyRunner =>
  (task, input) => {
    if (task !== "goldFigures") return run(task, input);
    const gold = input as HeavyInput<"goldFigures">;
    return run(task, { ...gold, options: { ...gold.options, draws: 20 } } as typeof input);
  };

// JSON as the page sends it: equal text means equal figures, to the last digit.
const asJson = (value: unknown) => JSON.stringify(value);

describe("the worker pool", () => {
  it("computes the offline report exactly as this thread does", async () => {
    const options = { B: 300, seed: "pool" };
    const inWorker = await pool.run("offlineReport", { packed: packOfflineInput(input), options });
    expect(asJson(inWorker)).toBe(asJson(offlineReport(input, options)));
  });

  it("computes an experiment's report exactly as this thread does", async () => {
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const totals = await sqlStreamTotals(t.db, experiment);
    expect(totals.events).toBeGreaterThan(0);
    const options = {
      weights: Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight])),
      control: experiment.arms.find((a) => a.isControl)!.key,
      intervals: true,
      B: 300,
      seed: "x",
    };
    const inWorker = await pool.run("onlineReport", { packed: packStreamTotals(totals), options });
    expect(asJson(inWorker)).toBe(asJson(reportFromTotals(totals, options)));
  });

  it("computes a campaign's agreement, results and learning curve exactly as this thread does", async () => {
    const campaign = (await listCampaigns(t.db)).find((c) => c.status !== "draft")!;
    const { pairs, proposals, systems } = await loadCampaignData(t.db, campaign.id);
    const data = { pairs, proposals, systems };
    const ratings = pairs.flatMap((p) =>
      p.grades
        .filter((g) => g.grade !== null)
        .map((g) => ({ item: String(p.itemId), rater: g.expert, value: g.grade! })),
    );
    expect(ratings.length).toBeGreaterThan(0);
    const options = { B: 200, seed: "c" };
    const inWorker = await pool.run("campaignFigures", {
      ratings,
      data,
      options,
      curve: { samples: 10, seed: "c" },
    });
    const inProcess = {
      agreement: agreementReport(ratings, "ordinal", options),
      results: campaignResults(data, options),
      curve: learningCurve(data, { samples: 10, seed: "c" }),
      needsGrade: pairsNeedingGrades(data),
    };
    expect(asJson(inWorker)).toBe(asJson(inProcess));
  });

  it("freezes snapshots of every kind to the same result as the CLI, which computes in-process", async () => {
    const campaign = (await listCampaigns(t.db)).find((c) => c.status !== "draft")!;
    for (const request of [
      { kind: "offline", B: 50, seed: "s" },
      { kind: "expert", campaign: campaign.id, B: 50, seed: "s" },
      { kind: "online", experiment: "reviewer-ranker-v2", B: 50, seed: "s" },
    ] as const) {
      const inPool = await computeResult(t.db, request, fewDraws(pool.run));
      // A fresh module, so this thread computes anew rather than serve the pool's result from the cache.
      vi.resetModules();
      const fresh = (await import("../../db/results/compute")).computeResult;
      const { runInProcess } = await import("../../scripts/workers/heavy-tasks");
      expect(asJson(inPool), request.kind).toBe(asJson(await fresh(t.db, request, fewDraws(runInProcess))));
    }
  });

  it("keeps the event loop free while a long bootstrap runs", async () => {
    // Ordering, not timing: while the bootstrap runs in its thread, this thread keeps answering database
    // queries; were it computed here, not one would run before the task is done. How long requests wait
    // meanwhile is measured by `npm run bench -- isolation`.
    let done = false;
    const task = pool
      .run("offlineReport", { packed: packOfflineInput(input), options: { B: 5_000, seed: "long" } })
      .then((report) => {
        done = true;
        return report;
      });
    let answered = 0;
    while (!done) {
      await t.db.execute(sql`select 1`);
      answered++;
    }
    expect(answered).toBeGreaterThan(3);
    expect((await task).systems.length).toBeGreaterThan(0);
  });

  it("refuses a task with a 503 and Retry-After when its queue is full", async () => {
    const small = createWorkerPool({ threads: 1, maxQueue: 1, nice: 0 });
    try {
      const task = () =>
        small.run("offlineReport", { packed: packOfflineInput(input), options: { B: 100, seed: "q" } });
      const outcomes = await Promise.allSettled([task(), task(), task()]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
      const refused = (outcomes[2] as PromiseRejectedResult).reason as Response;
      expect(refused.status).toBe(503);
      expect(refused.headers.get("Retry-After")).toBe("10");
      expect((await refused.json()).message).toMatch(/busy .* try again in 10 seconds/);
    } finally {
      await small.close();
    }
  });
});
