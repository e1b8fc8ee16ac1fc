import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAssay } from "../../../test/run-cli";
import { adjustPValues } from "../../stats/multiple-testing";

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
    [
      ["--slice", "institution"],
      /--slice: unknown slice attribute "institution"; known: subject, or a convener/,
    ],
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

describe("assay online --slice <convener attribute>", () => {
  const lines = fs.readFileSync(events, "utf8").trim().split("\n");
  // The analysed experiment's (the newest, ranker-v3) conveners.
  const analysed = lines.map((l) => JSON.parse(l)).filter((e) => e.experiment === "ranker-v3");
  const units = [...new Set(analysed.map((e) => e.unitId as string))].sort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "convener-attributes-"));
  const file = path.join(dir, "conveners.csv");
  // Every unit but the first gets an institution; the first must land in "(no value)".
  fs.writeFileSync(
    file,
    [
      "convener,attribute,value",
      ...units.slice(1).map((u, i) => `${u},institution,${i % 2 ? "ETH" : "EPFL"}`),
    ].join("\n"),
  );

  it("slices whole conveners by their institution, p adjusted across slices and metrics", async () => {
    const run = await runAssay(
      ["online", "--events", events, "--slice", "institution"].concat([
        "--convener-attributes",
        file,
        "--json",
      ]),
    );
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.slices.attribute).toBe("institution");
    expect(out.slices.slices.map((s: { slice: string }) => s.slice)).toEqual(["(no value)", "EPFL", "ETH"]);
    expect(out.slices.slices[0]).toMatchObject({ tooFew: true });
    const counted = out.slices.slices.reduce(
      (n: number, s: { units: Record<string, number> }) =>
        n + Object.values(s.units).reduce((a, b) => a + b, 0),
      0,
    );
    // Each analysed convener (the report's units of every arm) is in exactly one slice, the one without
    // an institution in "(no value)".
    const analysedUnits = Object.values(out.arms as Record<string, { units: number }>).reduce(
      (n, a) => n + a.units,
      0,
    );
    expect(counted).toBe(analysedUnits);
    expect(Object.values(out.slices.slices[0].units)).toEqual([1]);
    const shown = out.slices.slices.flatMap(
      (s: {
        tooFew: boolean;
        decisions?: { adjustedP: number | null; unadjusted: { relative: { pValue: number } } }[];
      }) => (s.tooFew ? [] : s.decisions!),
    );
    expect(shown.map((d: { adjustedP: number | null }) => d.adjustedP)).toEqual(
      adjustPValues(
        shown.map((d: { unadjusted: { relative: { pValue: number } } }) => d.unadjusted.relative.pValue),
        "holm",
      ),
    );
  });

  it("refuses an attribute the file lacks, listing the known ones, and a bad row by its line (exit 2)", async () => {
    const missing = await runAssay([
      "online",
      "--events",
      events,
      "--slice",
      "seniority",
      "--convener-attributes",
      file,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '--slice: unknown slice attribute "seniority"; known: subject, institution.',
    );
    const bad = path.join(dir, "bad.csv");
    fs.writeFileSync(
      bad,
      `convener,attribute,value\n${units[0]},institution,ETH\n${units[1]},institution,${"x".repeat(201)}\n`,
    );
    const long = await runAssay([
      "online",
      "--events",
      events,
      "--slice",
      "institution",
      "--convener-attributes",
      bad,
    ]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain("--convener-attributes: line 3: value is longer than 200 characters.");
    expect(long.stdout).toBe("");
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
    // --adjust bh: Benjamini–Hochberg over the same p-values, as the app's selector gives.
    const bh = await runAssay(
      ["online", "--events", events, "--slice", "subject", "--subjects", file].concat([
        "--adjust",
        "bh",
        "--json",
      ]),
    );
    expect(bh.code, bh.stderr).toBe(0);
    const slices = JSON.parse(bh.stdout).slices;
    expect(slices.correction).toBe("bh");
    const bhShown = slices.slices.flatMap((s: { tooFew: boolean; decisions?: unknown[] }) =>
      s.tooFew ? [] : s.decisions,
    );
    const ps = shown.map(
      (d: { unadjusted: { relative: { pValue: number } } }) => d.unadjusted.relative.pValue,
    );
    expect(bhShown.map((d: { adjustedP: number }) => d.adjustedP)).toEqual(adjustPValues(ps, "bh"));
    const wrong = await runAssay(
      ["online", "--events", events, "--slice", "subject", "--subjects", file].concat([
        "--adjust",
        "bonferroni",
      ]),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--adjust");
  });
});

describe("assay online --guardrail", () => {
  // 20 conveners per arm, one session each: A finishes in 10 + i/10 minutes, B in 13 + i/10 (30% slower);
  // each adopts C1 (declared in conflict with P1 in half of B's sessions) and opens C1's profile.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-guardrails-"));
  const file = path.join(dir, "events.jsonl");
  const conflicts = path.join(dir, "conflicts.csv");
  const lines: object[] = [];
  let minutesA = 0;
  for (let i = 0; i < 40; i++) {
    const arm = i % 2 === 0 ? "A" : "B";
    const unitId = `c${i}`;
    const proposalId = arm === "B" && i % 4 === 1 ? "P1" : "P2";
    const at = (m: number) => new Date(Date.parse("2026-11-02T10:00:00Z") + m * 60_000).toISOString();
    const base = { experiment: "g", arm, unitId, sessionId: "s", proposalId };
    const minutes = (arm === "A" ? 10 : 13) + i / 10;
    if (arm === "A") minutesA += minutes;
    lines.push(
      { ...base, eventId: `${i}-i`, type: "impression", at: at(0), items: ["C1", "C2"] },
      { ...base, eventId: `${i}-c`, type: "click", at: at(1), candidateId: "C1" },
      { ...base, eventId: `${i}-a`, type: "adopt", at: at(2), candidateId: "C1" },
      { ...base, eventId: `${i}-f`, type: "finish", at: at(minutes) },
    );
  }
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
  fs.writeFileSync(conflicts, "proposal,candidate,reason\nP1,C1,co-author\n");

  it("computes each guardrail from the events and the conflicts file, with its state", async () => {
    const run = await runAssay([
      ...["online", "--events", file, "--json", "--conflicts", conflicts],
      ...["--guardrail", "minutesToFinish:increase:10%", "--guardrail", "coiShare:increase:0"],
      ...["--guardrail", "emptyCommitteeShare:increase:5%"],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [slower, coi, empty] = JSON.parse(run.stdout).guardrails;
    expect(slower).toMatchObject({ metric: "minutesToFinish", arm: "B", state: "failing" });
    expect(slower.control).toBeCloseTo(minutesA / 20, 9);
    expect(slower.ci[0]).toBeGreaterThan(0.1);
    // B adopted a conflicted candidate in 10 of its 20 sessions, A in none.
    expect(coi).toMatchObject({ metric: "coiShare", control: 0, treatment: 0.5 });
    expect(empty).toMatchObject({
      metric: "emptyCommitteeShare",
      control: 0,
      treatment: 0,
      state: "at risk",
    });
  });

  it("refuses an unknown guardrail metric by name, and coiShare without --conflicts, with exit 2", async () => {
    const unknown = await runAssay(["online", "--events", file, "--guardrail", "bounceRate:increase:5%"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('guardrail metric "bounceRate" is unknown');
    const noConflicts = await runAssay(["online", "--events", file, "--guardrail", "coiShare:increase:0"]);
    expect(noConflicts.code).toBe(2);
    expect(noConflicts.stderr).toContain("--guardrail coiShare needs --conflicts");
  });

  it("refuses a bad share guardrail naming the entry, and one the attributes file cannot read, with exit 2", async () => {
    const attributes = path.join(dir, "attributes.csv");
    fs.writeFileSync(attributes, "candidate,attribute,value\nC1,gender,f\nC2,gender,m\n");
    const refusals: [string[], string][] = [
      [["--guardrail", "share:gender=f:min:135%", "--attributes", attributes], 'guardrail share "135%"'],
      [["--guardrail", "share:gender=f:least:35%", "--attributes", attributes], 'the bound "least"'],
      [["--guardrail", "share:=f:min:35%", "--attributes", attributes], "the attribute must be"],
      [["--guardrail", "share:gender=f:min:35%"], "--guardrail share:gender=f:min:35% needs --attributes"],
      [
        ["--guardrail", "share:genre=f:min:35%", "--attributes", attributes],
        `--guardrail share:genre=f:min:35%: the attribute "genre" is not in ${attributes}; known: gender.`,
      ],
      [
        ["--guardrail", "share:gender=f:min:35%", "--guardrail", "share:gender=f:min:40%"],
        "this group's min is named twice",
      ],
    ];
    for (const [flags, message] of refusals) {
      const run = await runAssay(["online", "--events", file, ...flags]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe("");
    }
  });
});
