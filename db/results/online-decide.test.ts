import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createExperiment, ExperimentError, getExperiment } from "../experiments/experiments";
import { ingestEvents } from "../experiments/events";
import { updateAnalysisSettings } from "../experiments/analysis-settings";
import { experiments } from "../schema";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { analysisSettingsSchema } from "../../scripts/inputs/analysis-settings";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { computeResult } from "./compute";
import { onlineResult } from "./online";
import type { OnlineEvent } from "../../scripts/online/events";

// Reference: test/fixtures/cuped-small (gbstats 0.8.0): three experiments of the same conveners, ranker-v3
// analysed with the others' sessions of the 28 days before its start as the CUPED pre-period.
const F = path.join(__dirname, "../../test/fixtures/cuped-small");
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));
const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-6 * Math.abs(b), 1e-12);

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 30, candidates: 300, seed: "online-decide" });
  const events: OnlineEvent[] = fs
    .readFileSync(path.join(F, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  for (const key of ["ranker-v1", "ranker-v2", "ranker-v3"]) {
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key,
        name: key,
        arms: [
          { key: "A", system: "baseline", weight: 0.5 },
          { key: "B", system: "challenger", weight: 0.5 },
        ],
        control: "A",
      }),
    );
    const experiment = (await getExperiment(t.db, key))!;
    const own = events.filter((e) => e.experiment === key);
    await ingestEvents(t.db, experiment, own, { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") });
  }
  await t.db
    .update(experiments)
    .set({ startedAt: new Date("2026-11-01T00:00:00Z"), status: "running" })
    .where(eq(experiments.key, "ranker-v3"));
}, 120_000);
afterAll(() => t.drop());

const settings = (form: Record<string, string>) =>
  analysisSettingsSchema.parse({ engine: "frequentist", prePeriodDays: "28", priorMean: "", ...form });

it("refuses a pre-period longer than the history, naming it, and stores nothing", async () => {
  await expect(
    updateAnalysisSettings(t.db, "cli", "ranker-v3", settings({ cuped: "on", prePeriodDays: "90" })),
  ).rejects.toThrow(/^prePeriodDays: a pre-period of 90 days .*59 whole day\(s\) of history/);
  await expect(
    updateAnalysisSettings(t.db, "cli", "ranker-v3", settings({ cuped: "on", prePeriodDays: "90" })),
  ).rejects.toBeInstanceOf(ExperimentError);
  expect((await getExperiment(t.db, "ranker-v3"))!.cuped).toBe(false);
});

it("the form's schema refuses a non-positive prior variance by name", () => {
  const r = analysisSettingsSchema.safeParse({ engine: "bayesian", prePeriodDays: "28", priorVariance: "0" });
  expect(r.success).toBe(false);
  expect(r.error!.issues[0]).toMatchObject({
    path: ["priorVariance"],
    message: expect.stringMatching(/above 0/),
  });
});

it("stores the guardrails of the admin form, and refuses an unknown guardrail metric by name", async () => {
  const bad = analysisSettingsSchema.safeParse({
    engine: "frequentist",
    prePeriodDays: "28",
    guardrails: "coiShare:increase:0\nbounceRate:increase:5%",
  });
  expect(bad.success).toBe(false);
  expect(bad.error!.issues[0]).toMatchObject({
    path: ["guardrails"],
    message: expect.stringContaining('"bounceRate" is unknown'),
  });
  await updateAnalysisSettings(
    t.db,
    "cli",
    "ranker-v2",
    settings({ guardrails: "minutesToFinish:increase:5%\nprofileOpensPerAdoption:increase:0.1" }),
  );
  expect((await getExperiment(t.db, "ranker-v2"))!.guardrails).toEqual([
    { metric: "minutesToFinish", direction: "increase", tolerance: 0.05 },
    { metric: "profileOpensPerAdoption", direction: "increase", tolerance: 0.1 },
  ]);
});

it("with CUPED on, the dashboard's result gives gbstats's figures from the database, both engines", async () => {
  await updateAnalysisSettings(
    t.db,
    "cli",
    "ranker-v3",
    settings({ cuped: "on", engine: "bayesian", priorVariance: "0.09" }),
  );
  const page = await onlineResult(t.db, { experiment: "ranker-v3", B: 50 }, runInProcess);
  const d = page.decisions!;
  expect(d.analysis).toMatchObject({ engine: "bayesian", cuped: true, prePeriodDays: 28 });
  expect(d.prePeriod).toEqual({ from: "2026-10-04T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" });
  for (const m of d.frequentist) {
    const want = expected.metrics[m.metric];
    const got = m.cuped!.result.absolute as { effect: number; pValue: number };
    expect(near(got.effect, want.cuped.frequentist.absolute.effect), m.metric).toBe(true);
    expect(near(got.pValue, want.cuped.frequentist.absolute.pValue), m.metric).toBe(true);
    expect(m.cuped!.unitsWithPrePeriod).toEqual({ control: 123, treatment: 121 });
  }
  for (const m of d.bayesian) {
    const got = m.cuped!.result.relative as { chanceToWin: number };
    const want = expected.metrics[m.metric].cuped.bayesianProperPrior.relative.chanceToWin;
    expect(near(got.chanceToWin, want), m.metric).toBe(true);
  }
  // A snapshot freezes the same result, the settings in force with it.
  const frozen = await computeResult(t.db, { kind: "online", experiment: "ranker-v3", B: 50 });
  expect(JSON.stringify(frozen)).toContain('"prePeriodDays":28');
});
