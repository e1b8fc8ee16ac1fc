import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../test/run-cli";

const root = path.resolve(__dirname, "../..");
const G = path.join(root, "test/fixtures/gold-small");
const expected = JSON.parse(fs.readFileSync(path.join(G, "expected.json"), "utf8"));

const assay = (...args: string[]) => runAssay(args);

function tempCsv(name: string, text: string) {
  const file = path.join(os.tmpdir(), `${name}-${process.pid}.csv`);
  fs.writeFileSync(file, text);
  return file;
}

const gold = [
  "agreement",
  "--ratings",
  `${G}/ratings.csv`,
  "--truth",
  `${G}/truth.csv`,
  "--bootstrap",
  "300",
  "--draws",
  "20",
  "--json",
];

describe("assay agreement --truth", () => {
  it("prints gold-small's expected rater statistics and aggregation accuracies, and learning curves", async () => {
    const { stdout, stderr, code } = await assay(...gold);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const out = JSON.parse(stdout);
    expect(out.goldItems).toBe(expected.goldItems);
    expect(out.alpha).toBeGreaterThan(0); // the alpha report is still there, "cant" ratings left out
    for (const [rater, want] of Object.entries(expected.raters) as [string, Record<string, number>][]) {
      const got = out.raters[rater];
      expect(got.gold).toBe(want.gold);
      for (const key of ["exact", "withinOne", "meanDifference", "tStatistic"])
        expect(got[key]).toBeCloseTo(want[key], 9);
      expect(Math.abs(got.pValue - want.pValue) / want.pValue).toBeLessThan(1e-6);
    }
    for (const m of ["median", "majority", "mean"])
      expect(out.aggregation[m].accuracy).toBeCloseTo(expected.aggregation[m].accuracy, 12);
    const ds = expected.aggregation["dawid-skene"];
    expect(Math.abs(out.aggregation["dawid-skene"].accuracy - ds.accuracy)).toBeLessThanOrEqual(ds.tolerance);
    expect(out.aggregation.median.ci.lower).toBeLessThan(out.aggregation.median.accuracy);
    expect(Object.keys(out.learningCurve)).toEqual(["median", "majority", "mean", "dawid-skene"]);
    // Items have 4 or 5 judged grades; with all of them each curve ends on its method's accuracy.
    expect(out.learningCurve.median.map((p: { n: number }) => p.n)).toEqual([1, 2, 3, 4, 5]);
    for (const m of ["median", "majority", "mean", "dawid-skene"])
      expect(out.learningCurve[m][4].accuracy).toBeCloseTo(out.aggregation[m].accuracy, 12);
    // One rater per item: every method gives that rater's grade.
    expect(out.learningCurve.majority[0]).toEqual(out.learningCurve.median[0]);
    expect(out.enoughRaters.median).toEqual({ allRaters: 0.8875, suggestedN: expect.any(Number) });
    expect(out.proposals["prop-000"]).toMatchObject({
      gold: expect.any(Number),
      minJudgements: expect.any(Number),
    });
  });

  it("takes --aggregate and breaks majority ties by a seeded coin when asked", async () => {
    const args = [...gold, "--aggregate", "majority", "--majority-ties", "coin", "--seed", "7"];
    const [a, b] = await Promise.all([assay(...args), assay(...args)]);
    const out = JSON.parse(a.stdout);
    expect(Object.keys(out.aggregation)).toEqual(["majority"]);
    expect(out).toEqual(JSON.parse(b.stdout));
    // Ties now go to one of the tied grades, sometimes the right one: never below the undecided 0.85.
    expect(out.aggregation.majority.accuracy).toBeGreaterThanOrEqual(0.85);
  });

  it.each([
    [
      ["--truth", tempCsv("truth-cols", "item,truth\nprop-000:cand-4376,3\n")],
      "needs the columns item,grade; missing grade",
    ],
    [
      ["--truth", tempCsv("truth-unknown", "item,grade\nprop-999:cand-1,3\n")],
      "line 2: the item prop-999:cand-1 is not in the ratings",
    ],
    [
      ["--truth", tempCsv("truth-grade", "item,grade\nprop-000:cand-4376,7\n")],
      `line 2: the grade "7" is not a grade from 1 to 4`,
    ],
    [
      ["--truth", `${G}/truth.csv`, "--aggregate", "vote"],
      `--aggregate takes median, majority, mean, dawid-skene (comma-separated), not "vote"`,
    ],
    [["--aggregate", "median"], "--aggregate needs --truth"],
    [
      ["--truth", `${G}/truth.csv`, "--majority-ties", "dice"],
      `--majority-ties must be undecided or coin, not "dice"`,
    ],
  ])("rejects bad input %j with one sentence", async (args, message) => {
    const result = await assay("agreement", "--ratings", `${G}/ratings.csv`, ...(args as string[]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe("");
  });

  it("rejects a rating off the 1–4 scale when scoring against the truth", async () => {
    const ratings = tempCsv("ratings-scale", "item,rater,grade\na,x,1\na,y,5\n");
    const truth = tempCsv("truth-scale", "item,grade\na,1\n");
    const result = await assay("agreement", "--ratings", ratings, "--truth", truth);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the grade 5 of y for a is not a grade from 1 to 4 (or cant)");
  });
});
