import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAssay } from "../../../test/run-cli";

// Reference: test/fixtures/cuped-small (gbstats 0.8.0; README there runs `assay online` with these flags).
const F = path.resolve(__dirname, "../../../test/fixtures/cuped-small");
const events = path.join(F, "events.jsonl");
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));

const near = (actual: number, wanted: number) =>
  Math.abs(actual - wanted) <= Math.max(1e-6 * Math.abs(wanted), 1e-12);

interface Outcome {
  effect: number;
  ci: [number, number];
  pValue?: number;
  chanceToWin?: number;
  risk?: [number, number];
}

function expectSame(got: Outcome, want: Outcome, what: string) {
  for (const key of ["effect", "pValue", "chanceToWin"] as const)
    if (want[key] !== undefined) expect(near(got[key]!, want[key]!), `${what} ${key}`).toBe(true);
  for (const i of [0, 1]) {
    expect(near(got.ci[i], want.ci[i]), `${what} ci`).toBe(true);
    if (want.risk) expect(near(got.risk![i], want.risk[i]), `${what} risk`).toBe(true);
  }
}

describe("assay online --cuped / --engine bayesian", () => {
  it("--cuped --json: the newest experiment, the others as history, gbstats's figures", async () => {
    const run = await runAssay(["online", "--events", events, "--cuped", "--json"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.analysis).toMatchObject({
      experiment: "ranker-v3",
      cuped: true,
      engine: "frequentist",
      prePeriod: { days: 28, from: "2026-10-04T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" },
    });
    expect(out.arms.A.units).toBe(expected.arms.A.units);
    for (const d of out.decisions) {
      const want = expected.metrics[d.metric];
      for (const diff of ["absolute", "relative"]) {
        expectSame(d.cuped.result[diff], want.cuped.frequentist[diff], `${d.metric} cuped ${diff}`);
        expectSame(d.unadjusted[diff], want.unadjusted.frequentist[diff], `${d.metric} plain ${diff}`);
      }
      expect(near(d.cuped.intervalNarrowing, want.cupedGain.absolute.intervalNarrowing)).toBe(true);
    }
  });

  it("--engine bayesian --cuped with a proper prior: posterior, chance to win and risks of gbstats", async () => {
    const run = await runAssay([
      "online",
      "--events",
      events,
      "--experiment",
      "ranker-v3",
      "--engine",
      "bayesian",
      "--cuped",
      "--prior-variance",
      "0.09",
      "--json",
    ]);
    expect(run.code).toBe(0);
    for (const d of JSON.parse(run.stdout).decisions)
      for (const diff of ["absolute", "relative"]) {
        const want = expected.metrics[d.metric];
        expectSame(d.cuped.result[diff], want.cuped.bayesianProperPrior[diff], `${d.metric} ${diff}`);
        expectSame(d.unadjusted[diff], want.unadjusted.bayesianProperPrior[diff], `${d.metric} ${diff}`);
      }
  });

  it("the table reads like GrowthBook's and says how much CUPED narrowed each interval", async () => {
    const run = await runAssay(["online", "--events", events, "--cuped", "--intervals", "sequential"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /change \(CUPED\) \[CI\] +p \/ chance to win +CUPED interval +unadjusted change/,
    );
    expect(run.stdout).toContain("ctr: CUPED narrowed the interval by 30.0% (θ = 0.7042");
  });

  it.each([
    [["--cuped", "--pre-period-days", "90"], /--pre-period-days: 90 days before the start .* 59 whole day/],
    [["--experiment", "ranker-v9"], /--experiment: "ranker-v9" has no events in this file/],
    [["--engine", "bayesian", "--prior-variance", "-1"], /'--prior-variance <v>' argument '-1' is invalid/],
    [["--engine", "bayesian", "--prior-mean", "0.1"], /--prior-mean needs --prior-variance/],
    [["--slice", "institution"], /argument 'institution' is invalid. unknown slice attribute "institution"/],
    [["--slice", "subject"], /--slice subject needs --subjects/],
    [
      ["--engine", "bandit"],
      /'--engine <engine>' argument 'bandit' is invalid. must be frequentist or bayesian/,
    ],
  ])("refuses %j with exit 2 and a message naming the flag", async (args, message) => {
    const run = await runAssay(["online", "--events", events, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });
});

describe("assay online --slice subject", () => {
  it("gives each subject's decisions with Holm-adjusted p and the number of comparisons", async () => {
    const lines = fs.readFileSync(events, "utf8").trim().split("\n");
    const proposals = [...new Set(lines.map((l) => JSON.parse(l).proposalId as string))].sort();
    const subjects = Object.fromEntries(proposals.map((p, i) => [p, i % 2 === 0 ? "biology" : "physics"]));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "slices-")), "subjects.json");
    fs.writeFileSync(file, JSON.stringify(subjects));
    const run = await runAssay([
      "online",
      "--events",
      events,
      "--slice",
      "subject",
      "--subjects",
      file,
      "--json",
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.slices.correction).toBe("holm");
    expect(out.slices.slices.map((s: { slice: string }) => s.slice)).toEqual(["biology", "physics"]);
    const shown = out.slices.slices.flatMap((s: { tooFew: boolean; decisions?: unknown[] }) =>
      s.tooFew ? [] : s.decisions,
    );
    expect(out.slices.comparisons).toBe(shown.length);
    for (const d of shown) expect(d.adjustedP).toBeGreaterThanOrEqual(d.unadjusted.relative.pValue);
  });
});
