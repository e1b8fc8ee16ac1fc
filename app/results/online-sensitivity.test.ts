import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { runAssay } from "../../test/run-cli";
import { seedDemo } from "../../scripts/demo/seed";
import { createSnapshot } from "../../db/snapshots/snapshots";
import { exportEvents } from "../../db/experiments/events";
import { getExperiment } from "../../db/experiments/experiments";
import { canonicalJson } from "../../scripts/lib/canonical";
import { powerQuerySchema } from "./power.server";

/** The A/B page's interval toggle as snapshots record it, and the power section against `assay power`. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "sensitivity" });
});
afterAll(() => t.drop());

const same = (value: unknown) => JSON.parse(canonicalJson(value));
const cliJson = async (args: string[]) => {
  const run = await runAssay(["power", ...args, "--json"]);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
};
const eventsFile = async (key: string, keep: (arm: string) => boolean = () => true) => {
  const lines: string[] = [];
  for await (const page of exportEvents(t.db, (await getExperiment(t.db, key))!))
    for (const e of page) if (keep(e.arm)) lines.push(JSON.stringify(e));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "assay-power-")), "events.jsonl");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
};

describe("the A/B page's intervals", () => {
  it("shows sequential intervals on request, and a snapshot frozen from it records them and holds the same figures", async () => {
    const { experimentDashboard } = await import("./dashboards.server");
    const fixed = await experimentDashboard("reviewer-ranker-v2");
    const sequential = await experimentDashboard("reviewer-ranker-v2", { intervals: "sequential" });
    expect(fixed.parameters).toMatchObject({ intervals: "fixed" });
    expect(sequential.parameters).toMatchObject({ intervals: "sequential", nStar: 5000 });
    expect(sequential.report).toMatchObject({ intervals: "sequential", nStar: 5000 });
    // Always-valid intervals are wider than the one-look bootstrap ones.
    const width = (r: typeof fixed.report, i: number) =>
      r!.comparisons[i].ci!.upper - r!.comparisons[i].ci!.lower;
    expect(width(sequential.report, 0)).toBeGreaterThan(width(fixed.report, 0));

    const snapshot = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      ...sequential.parameters,
    });
    expect(snapshot.parameters).toMatchObject({ intervals: "sequential", nStar: 5000 });
    const {
      experiment: _named,
      daily: _daily,
      decisions,
      composition: _composition,
      ...report
    } = snapshot.result as Record<string, unknown>;
    expect(report).toEqual(same(sequential.report));
    // The decision figures (engine, CUPED) sit beside the report on the page, inside it in a snapshot.
    expect(decisions).toEqual(same(sequential.decisions));
    const other = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      ...fixed.parameters,
    });
    expect(other.id).not.toBe(snapshot.id);
    expect(other.parameters).toMatchObject({ intervals: "fixed" });
    expect((other.result as Record<string, unknown>).intervals).toBeUndefined();
  });
});

describe("the power section", () => {
  it("sizes an A/B test and an interleaving experiment as assay power does", async () => {
    const { powerAnswer } = await import("./power.server");
    const ab = powerAnswer(
      powerQuerySchema.parse({
        power: "ab",
        baseline: "30",
        lift: "10",
        sessionsPerConvener: "5",
        icc: "0.1",
      }),
      null,
    );
    const cli = await cliJson([
      "--baseline",
      "0.3",
      "--lift",
      "0.1",
      "--sessions-per-convener",
      "5",
      "--icc",
      "0.1",
    ]);
    expect(ab?.plan && "perArm" in ab.plan ? ab.plan.perArm : null).toEqual(cli.perArm);
    expect(
      ab?.plan && "perArm" in ab.plan
        ? [ab.plan.total, ab.plan.designEffect, ab.plan.effectiveSessionsPerArm]
        : null,
    ).toEqual([cli.total, cli.designEffect, cli.effectiveSessionsPerArm]);
    // The worked example of docs/online-experiments.md: 499 sessions from 100 conveners per arm.
    expect(cli.perArm).toEqual({ conveners: 100, sessions: 499 });
    const il = powerAnswer(
      powerQuerySchema.parse({ power: "interleaving", winRate: "55", alpha: "0.05", power1: "0.9" }),
      null,
    );
    expect(il?.plan && "sessions" in il.plan ? il.plan.sessions : null).toBe(
      (await cliJson(["--interleaving", "--win-rate", "0.55", "--power", "0.9"])).sessions,
    );
  });

  it("takes baseline, sessions per convener and ICC from the control arm's history, as assay power --events does", async () => {
    const { controlHistory, powerAnswer } = await import("./power.server");
    const history = await controlHistory(t.db);
    expect(history?.sessions).toBeGreaterThan(0);
    const answer = powerAnswer(powerQuerySchema.parse({ power: "ab", lift: "5" }), history);
    const cli = await cliJson([
      "--events",
      await eventsFile("reviewer-ranker-v2", (arm) => arm === "A"),
      "--lift",
      "0.05",
    ]);
    expect(
      answer?.plan && "perArm" in answer.plan
        ? [answer.plan.baseline, answer.plan.sessionsPerConvener, answer.plan.icc, answer.plan.perArm]
        : null,
    ).toEqual([cli.baseline, cli.sessionsPerConvener, cli.icc, cli.perArm]);
    expect(answer?.plan && "baselineFrom" in answer.plan ? answer.plan.baselineFrom : null).toBe("history");
    // A lift that leaves the unit interval is refused with a sentence.
    expect(
      powerAnswer(powerQuerySchema.parse({ power: "ab", baseline: "90", lift: "20" }), history)?.error,
    ).toBe("A lift of 20 points on a baseline of 90% gives 110%, not a rate strictly between 0% and 100%.");
  });

  it("measures CUPED's ρ on the demo's conveners against their own pre-period, and the form defaults to it", async () => {
    const { historyRho, powerAnswer } = await import("./power.server");
    const measured = await historyRho(t.db);
    expect(measured).not.toBeNull();
    expect(measured!.conveners).toBeGreaterThanOrEqual(3);
    expect(Math.abs(measured!.rho)).toBeLessThan(1);
    const answer = powerAnswer(
      powerQuerySchema.parse({ power: "ab", baseline: "30", lift: "5" }),
      null,
      measured,
    );
    expect(answer?.plan && "rhoFrom" in answer.plan ? [answer.plan.rho, answer.plan.rhoFrom] : null).toEqual([
      measured!.rho,
      "history",
    ]);
  });

  it("gives after launch the minimum detectable effect assay power computes on the experiment's events", async () => {
    const { afterLaunchPower } = await import("./power.server");
    const soFar = await afterLaunchPower(t.db, (await getExperiment(t.db, "reviewer-ranker-v2"))!);
    const cli = await cliJson(["--events", await eventsFile("reviewer-ranker-v2"), "--lift", "0.05"]);
    expect(soFar).toMatchObject({
      baseline: cli.baseline,
      convenersPerArm: cli.minimumDetectableEffect.convenersPerArm,
      absolute: cli.minimumDetectableEffect.absolute,
      relative: cli.minimumDetectableEffect.relative,
    });
  });
});
