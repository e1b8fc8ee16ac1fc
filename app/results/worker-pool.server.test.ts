import { performance } from "node:perf_hooks";
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
import { createWorkerPool, type WorkerPool } from "./worker-pool.server";

let t: TestDatabase;
let pool: WorkerPool;
let input: OfflineInput;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db);
  input = await loadOfflineInput(t.db);
  pool = createWorkerPool({ threads: 1, maxQueue: 4 });
});
afterAll(async () => {
  await pool.close();
  await t.drop();
});

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
    };
    expect(asJson(inWorker)).toBe(asJson(inProcess));
  });

  it("freezes snapshots of every kind to the same result as the CLI, which computes in-process", async () => {
    const campaign = (await listCampaigns(t.db)).find((c) => c.status !== "draft")!;
    for (const request of [
      { kind: "offline", B: 200, seed: "s" },
      { kind: "expert", campaign: campaign.id, B: 200, seed: "s" },
      { kind: "online", experiment: "reviewer-ranker-v2", B: 200, seed: "s" },
    ] as const) {
      expect(asJson(await computeResult(t.db, request, pool.run)), request.kind).toBe(
        asJson(await computeResult(t.db, request)),
      );
    }
  }, 120_000); // every kind twice (pool and this thread), up to ~30 s on a loaded two-core machine

  it("keeps the event loop free while a long bootstrap runs", async () => {
    // A timer every 10 ms: its worst lateness is how long a request would have waited meanwhile.
    let worstLag = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - last - 10);
      last = now;
    }, 10);
    const started = performance.now();
    await pool.run("offlineReport", {
      packed: packOfflineInput(input),
      options: { B: 10_000, seed: "long" },
    });
    const took = performance.now() - started;
    clearInterval(timer);
    // Only meaningful if the task outlasts the bound by far (it takes seconds on this thread).
    expect(took).toBeGreaterThan(1000);
    expect(worstLag).toBeLessThan(250);
  });

  it("refuses a task with a 503 and Retry-After when its queue is full", async () => {
    const small = createWorkerPool({ threads: 1, maxQueue: 1 });
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
