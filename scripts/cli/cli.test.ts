import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../test/run-cli";

const root = path.resolve(__dirname, "../..");
const F = path.join(root, "test/fixtures");

const assay = (...args: string[]) => runAssay(args);

describe("assay CLI", () => {
  it("lists every command in its help and suggests one for a typo, though it loads only the command asked for", async () => {
    const help = await assay("--help");
    expect(help.code).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed).toEqual(
      expect.arrayContaining([
        "import",
        "admin",
        "demo",
        "eval",
        "compare",
        "agreement",
        "online",
        "assign",
        "offline",
        "baselines",
        "experiment",
        "events",
        "campaign",
        "snapshot",
        "help",
      ]),
    );
    const typo = await assay("evall");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("(Did you mean eval?)");
    const baselines = await assay("baselines", "--help");
    expect(baselines.stdout).toContain("Usage: assay baselines");
  });

  it("eval --json prints trec_eval's values in canonical names", async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(F, "trec-small/expected.json"), "utf8")).complete;
    const ok = await assay(
      "eval",
      "--qrels",
      `${F}/trec-small/qrels.txt`,
      "--run",
      `${F}/trec-small/run.txt`,
      "--complete",
      "--per-query",
      "--json",
      "--measure",
      "ndcg@10",
      "--measure",
      "map",
    );
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(out.queries).toBe(56);
    expect(Object.keys(out.aggregate)).toEqual(["nDCG@10", "AP"]);
    expect(out.aggregate["nDCG@10"]).toBeCloseTo(expected.aggregate["nDCG@10"], 4);
    expect(out.perQuery["p3-0005"]["AP"]).toBeCloseTo(expected.perQuery["p3-0005"]["AP"], 4);
    expect(ok.stderr).toBe("");
  });

  it("eval --ci gives the same interval for the same seed", async () => {
    const args = [
      "eval",
      "--qrels",
      `${F}/trec-small/qrels.txt`,
      "--run",
      `${F}/trec-small/run.txt`,
      "--measure",
      "RR",
      "--ci",
      "--bootstrap",
      "500",
      "--seed",
      "9",
      "--json",
    ];
    const [a, b] = await Promise.all([assay(...args), assay(...args)]);
    expect(JSON.parse(a.stdout).ci).toEqual(JSON.parse(b.stdout).ci);
    expect(JSON.parse(a.stdout).ci.RR.lower).toBeLessThan(JSON.parse(a.stdout).aggregate.RR);
  });

  it("compare --json reports the scipy t-test", async () => {
    const ref = JSON.parse(fs.readFileSync(path.join(F, "trec-small/compare-expected.json"), "utf8"));
    const { stdout, code } = await assay(
      "compare",
      "--qrels",
      `${F}/trec-small/qrels.txt`,
      "--run",
      `${F}/trec-small/run.txt`,
      "--run",
      `${F}/trec-small/runB.txt`,
      "--measure",
      "nDCG@10",
      "--json",
    );
    expect(code).toBe(0);
    const pair = JSON.parse(stdout).pairs[0];
    expect(Math.abs(pair.pValue / ref.t.pValue - 1)).toBeLessThan(1e-6);
    expect(pair.difference).toBeCloseTo(ref.diff, 9);
  });

  it("online --json reproduces the online-small reference", async () => {
    const ref = JSON.parse(fs.readFileSync(path.join(F, "online-small/expected.json"), "utf8"));
    const { stdout, code } = await assay(
      "online",
      "--events",
      `${F}/online-small/events.jsonl`,
      "--weights",
      "A=0.5,B=0.5",
      "--bootstrap",
      "200",
      "--json",
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.arms.B.adopted).toBe(ref.arms.B.adopted);
    expect(out.arms.A.ctr).toBeCloseTo(ref.arms.A.ctr, 12);
    expect(out.srm.pValue).toBeCloseTo(ref.srm.pValue, 9);
  });

  it("agreement --json gives the published ordinal alpha", async () => {
    const { stdout } = await assay(
      "agreement",
      "--ratings",
      `${F}/agreement-krippendorff/ratings.csv`,
      "--bootstrap",
      "200",
      "--json",
    );
    expect(JSON.parse(stdout).alpha).toBeCloseTo(0.8153875037548814, 9);
  });

  it("assign prints one JSON line per unit, as GrowthBook buckets them", async () => {
    const cases = JSON.parse(fs.readFileSync(path.join(F, "assign-small.json"), "utf8")).filter(
      (c: { seed: string; coverage: number; weights: number[] }) =>
        c.seed === "reviewer-ranker-v2" && c.coverage === 0.6 && c.weights.length === 2,
    );
    const file = path.join(os.tmpdir(), `units-${process.pid}.txt`);
    fs.writeFileSync(file, cases.map((c: { unit: string }) => c.unit).join("\n") + "\n");
    const { stdout } = await assay(
      "assign",
      "--seed",
      "reviewer-ranker-v2",
      "--weights",
      "0.1,0.9",
      "--coverage",
      "0.6",
      "--units",
      file,
    );
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(
      cases.map((c: { unit: string; hash: number; arm: number }) => ({
        unit: c.unit,
        hash: c.hash,
        arm: c.arm,
      })),
    );
  });

  it.each([
    [
      ["eval", "--qrels", "missing.txt", "--run", "x"],
      1,
      "Cannot read the qrels file missing.txt: no such file.",
    ],
    [
      [
        "eval",
        "--qrels",
        `${F}/trec-small/qrels.txt`,
        "--run",
        `${F}/trec-small/run.txt`,
        "--measure",
        "nDCG@x",
      ],
      2,
      "is not a measure",
    ],
    [
      [
        "eval",
        "--qrels",
        `${F}/trec-small/qrels.txt`,
        "--run",
        `${F}/trec-small/run.txt`,
        "--bootstrap",
        "-3",
      ],
      2,
      "argument '-3' is invalid",
    ],
    [
      [
        "compare",
        "--qrels",
        `${F}/trec-small/qrels.txt`,
        "--run",
        `${F}/trec-small/run.txt`,
        "--measure",
        "AP",
        "--test",
        "z",
      ],
      2,
      "--test must be t, wilcoxon or permutation",
    ],
    [["online", "--events", `${F}/trec-small/qrels.txt`], 2, "bad event lines"],
    [
      ["assign", "--seed", "s", "--weights", "0.5,0.6", "--units", `${F}/trec-small/qrels.txt`],
      2,
      "arm weights must sum to 1",
    ],
    [["agreement", "--ratings", `${F}/trec-small/qrels.txt`], 2, "needs the columns item,rater,grade"],
    [["nonsense"], 2, "unknown command"],
  ])("rejects bad input %j with one sentence", async (args, code, message) => {
    const result = await assay(...(args as string[]));
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
