import path from "node:path";
import { runAssay } from "../../test/run-cli";

const root = path.resolve(__dirname, "../..");
const events = path.join(root, "test/fixtures/online-small/events.jsonl");

const assay = (...args: string[]) => runAssay(args);

describe("assay power", () => {
  it("sizes an A/B test with the design effect of several sessions per convener", async () => {
    const { stdout, code } = await assay(
      "power",
      "--metric",
      "adoption",
      "--baseline",
      "0.3",
      "--lift",
      "0.1",
      "--sessions-per-convener",
      "5",
      "--icc",
      "0.1",
      "--json",
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    // 355.94 independent sessions per arm (worked in power.test.ts) × (1 + 4 × 0.1) = 498.3 → 499 sessions, 100 conveners.
    expect(out.effectiveSessionsPerArm).toBeCloseTo(355.9428127, 5);
    expect(out.perArm).toEqual({ conveners: 100, sessions: 499 });
    expect(out.total).toEqual({ conveners: 200, sessions: 998 });
    // After launch, the planned 100 conveners per arm (500 sessions, 357 effective) detect just under the 10 points asked.
    const after = JSON.parse(
      (
        await assay(
          "power",
          "--baseline",
          "0.3",
          "--lift",
          "0.1",
          "--sessions-per-convener",
          "5",
          "--icc",
          "0.1",
          "--conveners",
          "100",
          "--json",
        )
      ).stdout,
    );
    expect(after.minimumDetectableEffect.absolute).toBeGreaterThan(0.099);
    expect(after.minimumDetectableEffect.absolute).toBeLessThan(0.1);
  });

  it("reads a relative lift, and takes baseline, sessions per convener and the MDE so far from a history", async () => {
    const relative = JSON.parse(
      (await assay("power", "--baseline", "0.3", "--lift", "0.1", "--relative", "--json")).stdout,
    );
    expect(relative.target).toBeCloseTo(0.33, 12);
    expect(relative.perArm.conveners).toBe(3763);
    const out = JSON.parse(
      (await assay("power", "--events", events, "--lift", "0.2", "--relative", "--json")).stdout,
    );
    // online-small: 59 of 102 sessions adopted someone, by 58 conveners (30 in A, 28 in B).
    expect(out.baselineFrom).toBe("events");
    expect(out.baseline).toBeCloseTo(59 / 102, 12);
    expect(out.sessionsPerConvener).toBeCloseTo(102 / 58, 12);
    expect(out.minimumDetectableEffect.convenersPerArm).toBe(28);
    expect(out.minimumDetectableEffect.absolute).toBeGreaterThan(out.lift.absolute);
  });

  it("sizes an interleaving experiment by sessions with a preference", async () => {
    const { stdout } = await assay("power", "--interleaving", "--win-rate", "0.55", "--json");
    expect(JSON.parse(stdout).sessions).toBe(783);
  });

  it.each([
    [["--baseline", "1.3", "--lift", "0.1"], "--baseline must be a number strictly between 0 and 1"],
    [["--baseline", "0.3"], "Give --lift"],
    [["--lift", "0.1"], "Give --baseline"],
    [["--baseline", "0.3", "--lift", "0.8"], "gives 1.1, not a rate strictly between 0 and 1"],
    [["--interleaving"], "--interleaving needs --win-rate"],
    [["--metric", "views", "--baseline", "0.3", "--lift", "0.1"], "must be adoption or click"],
    [["--baseline", "0.3", "--lift", "0.1", "--icc", "2"], "must be a number between 0 and 1"],
  ])("rejects %j with one sentence and exit 2", async (args, message) => {
    const result = await assay("power", ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("assay online --intervals", () => {
  it("records sequential intervals and N* in the JSON report, and rejects an unknown kind", async () => {
    const out = JSON.parse(
      (
        await assay(
          "online",
          "--events",
          events,
          "--bootstrap",
          "200",
          "--intervals",
          "sequential",
          "--n-star",
          "300",
          "--json",
        )
      ).stdout,
    );
    expect(out.intervals).toBe("sequential");
    expect(out.nStar).toBe(300);
    const fixed = JSON.parse(
      (await assay("online", "--events", events, "--bootstrap", "200", "--json")).stdout,
    );
    expect(fixed.intervals).toBe("fixed");
    const bad = await assay("online", "--events", events, "--intervals", "peeking");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("must be fixed or sequential");
  });
});

describe("assay power --rho --slices", () => {
  // The power form's hand-checked figures (app/results/power-cuped.test.ts, scripts/online/power.test.ts):
  // 30% → 35%, α 0.05, power 0.8: 1,376.30 independent sessions per arm; 1,032.22 with ρ 0.5; 1,955.61 with 4 slices.
  const plan = async (...flags: string[]) => {
    const run = await assay("power", "--baseline", "0.3", "--lift", "0.05", "--json", ...flags);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };

  it("scales the sessions by CUPED's 1 − ρ² and reads each slice at α / k, as the power form does", async () => {
    expect((await plan()).effectiveSessionsPerArm).toBeCloseTo(1376.2989, 3);
    const cuped = await plan("--rho", "0.5");
    expect(cuped).toMatchObject({ rho: 0.5, varianceFactor: 0.75, slices: 1, alphaPerSlice: 0.05 });
    expect(cuped.effectiveSessionsPerArm).toBeCloseTo(1032.2241512, 4);
    expect(cuped.perArm.sessions).toBe(1033);
    const sliced = await plan("--slices", "4");
    expect(sliced).toMatchObject({ slices: 4, alphaPerSlice: 0.0125, perArm: { sessions: 1956 } });
    expect(sliced.effectiveSessionsPerArm).toBeCloseTo(1955.6125786, 4);
    expect((await plan("--slices", "4", "--rho", "0.5")).effectiveSessionsPerArm).toBeCloseTo(
      0.75 * 1955.6125786,
      3,
    );
  });

  it.each([
    [["--rho", "1"], "--rho"],
    [["--rho", "-0.2"], "--rho"],
    [["--slices", "0"], "--slices"],
    [["--slices", "2.5"], "--slices"],
  ])("refuses %j with exit 2, naming the flag", async (flags, name) => {
    const run = await assay("power", "--baseline", "0.3", "--lift", "0.05", ...flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(name);
    expect(run.stdout).toBe("");
  });
});
