import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { DEMO_EXPERIMENT, seedDemo } from "./seed";
import { getExperiment } from "../../db/experiments/experiments";
import { updateAnalysisSettings } from "../../db/experiments/analysis-settings";
import { onlineResult } from "../../db/results/online";
import { runInProcess } from "../workers/heavy-tasks";
import { DEFAULT_PRE_PERIOD_DAYS } from "../online/decide";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * A fresh demo (as `npm start` seeds it) reads as it ran: each experiment started before its first event,
 * and the A/B experiment's history reaches back over CUPED's default pre-period, whose sessions are the
 * same conveners' of the earlier interleaving and multileaving experiments. Before, the A/B "started" at
 * the seeding, 26 days after its events: CUPED's default was refused and the daily charts began before it.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db);
}, 300_000);
afterAll(() => t.drop());

it("starts every demo experiment at or before its first event and stops a stopped one after its last", async () => {
  const rows = await t.db.execute<{
    key: string;
    started_at: string;
    stopped_at: string | null;
    first: string;
    last: string;
  }>(sql`select e.key, e.started_at::text, e.stopped_at::text, min(v.at)::text as first, max(v.at)::text as last
    from experiments e join events v on v.experiment_id = e.id group by e.id order by e.key`);
  expect(rows.map((r) => r.key)).toContain(DEMO_EXPERIMENT);
  expect(rows.length).toBe(3);
  for (const r of rows) {
    expect(Date.parse(r.started_at), r.key).toBeLessThanOrEqual(Date.parse(r.first));
    if (r.stopped_at !== null)
      expect(Date.parse(r.stopped_at), r.key).toBeGreaterThanOrEqual(Date.parse(r.last));
  }
  const ab = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  expect(ab.status).toBe("running");
  // Just before: the first event follows the start by seconds, not days.
  const first = Date.parse(rows.find((r) => r.key === DEMO_EXPERIMENT)!.first);
  expect(first - ab.startedAt!.getTime()).toBeLessThan(65_000);
});

it("accepts CUPED's default pre-period, read from every A/B convener's earlier sessions, and begins the daily series at the start", async () => {
  const ab = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  expect(ab.prePeriodDays).toBe(DEFAULT_PRE_PERIOD_DAYS);
  await updateAnalysisSettings(t.db, "cli", DEMO_EXPERIMENT, {
    engine: ab.engine,
    cuped: true,
    prePeriodDays: DEFAULT_PRE_PERIOD_DAYS,
    priorMean: ab.priorMean,
    priorVariance: ab.priorVariance ?? undefined,
    guardrails: ab.guardrails,
  });
  expect((await getExperiment(t.db, DEMO_EXPERIMENT))!.cuped).toBe(true);
  const result = await onlineResult(t.db, { experiment: DEMO_EXPERIMENT }, runInProcess);
  const decisions = result.decisions!;
  expect(decisions.cupedProblem).toBeNull();
  const start = ab.startedAt!.toISOString();
  expect(decisions.prePeriod).toEqual({
    from: new Date(ab.startedAt!.getTime() - DEFAULT_PRE_PERIOD_DAYS * 86_400_000).toISOString(),
    to: start,
  });
  const conveners = Object.values(result.report!.arms).reduce((n, a) => n + a.units, 0);
  for (const d of decisions.frequentist) {
    const { control, treatment } = d.cuped!.unitsWithPrePeriod;
    expect(control + treatment, d.metric).toBe(conveners);
  }
  expect(result.daily[0].day).toBe(start.slice(0, 10));
  // docs/online-experiments.md quotes what CUPED does on the demo, to one decimal of a percent.
  const text = readFileSync(path.resolve(__dirname, "../../docs/online-experiments.md"), "utf8");
  const quoted =
    /variance of the difference by ([\d.]+)% for CTR, ([\d.]+)% for session\s+success, ([\d.]+)% for mean adopted rank and ([\d.]+)% for adoption rate/.exec(
      text,
    );
  expect(quoted, "the page quotes the demo's variance reductions").not.toBeNull();
  const reduction = (metric: string) =>
    decisions.frequentist.find((d) => d.metric === metric)!.cuped!.varianceReduction!;
  ["ctr", "sessionSuccessRate", "meanAdoptedRank", "adoptionRate"].forEach((metric, i) =>
    // + 0 turns a rounded −0 (a reduction of −0.002%) into the 0 the text writes.
    expect(Math.round(reduction(metric) * 1000) / 10 + 0, metric).toBe(Number(quoted![i + 1])),
  );
});
