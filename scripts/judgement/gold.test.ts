import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { aggregateItems, aggregationAccuracy, aggregationMethods, type GradedRating } from "./aggregate";
import { goldAgreement, proposalGoldAgreement, raterGoldAgreement } from "./gold";
import { oneSampleTTest } from "../stats/t-test";

const F = path.resolve(__dirname, "../../test/fixtures/gold-small");
const rows = (file: string) =>
  Papa.parse<Record<string, string>>(fs.readFileSync(path.join(F, file), "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
const ratings: GradedRating[] = rows("ratings.csv")
  .filter((r) => r.grade !== "cant")
  .map((r) => ({ item: r.item, rater: r.rater, grade: Number(r.grade) }));
const truth = new Map(rows("truth.csv").map((r) => [r.item, Number(r.grade)]));
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));

describe("one-sample t-test", () => {
  it.each([
    // scipy 1.17.1: stats.ttest_1samp(x, 0) → (statistic, pvalue)
    [[1, 2, 3, 4], 3.872983346207417, 0.030466291662170977],
    [[1, 0, 0, 1, -1, 1, 1], 1.4411533842457844, 0.19962167272607984],
    [[0.5, -0.25, 2, 1.5, 3.25], 2.313338677361677, 0.08173204306254592],
    [[...Array(19).fill(1), 0], 19.0, 8.074624172632276e-14],
  ])("matches scipy.stats.ttest_1samp on %j", (values, t, p) => {
    const test = oneSampleTTest(values)!;
    expect(test.tStatistic).toBeCloseTo(t, 9);
    expect(Math.abs(test.pValue - p) / p).toBeLessThan(1e-6);
  });

  it("works [1, 2, 3, 4] by hand", () => {
    // mean 2.5; s² = (2.25 + 0.25 + 0.25 + 2.25)/3 = 5/3; t = 2.5/√(5/3 / 4) = 2.5/0.645497… = 3.872983…
    // df 3: p = I_{3/(3+15)}(3/2, 1/2) = 0.030466…
    expect(oneSampleTTest([1, 2, 3, 4])!.tStatistic).toBeCloseTo(2.5 / Math.sqrt(5 / 12), 12);
  });

  it("gives no test below two values or without spread", () => {
    expect(oneSampleTTest([1])).toBeNull();
    expect(oneSampleTTest([1, 1, 1])).toBeNull();
  });
});

describe("gold agreement", () => {
  it("works a small rater by hand", () => {
    // grades 2, 3, 4, 1 against truth 2, 2, 2, 3 → differences 0, 1, 2, −2:
    // exact 1/4, within one 2/4, mean difference 1/4; s² = (1/16 + 9/16 + 49/16 + 81/16)/3 = 35/12,
    // t = 0.25/√(35/48) = 0.29277…
    const g = goldAgreement([2, 3, 4, 1], [2, 2, 2, 3]);
    expect(g).toMatchObject({ gold: 4, exact: 0.25, withinOne: 0.5, meanDifference: 0.25, flagged: false });
    expect(g.tStatistic).toBeCloseTo(0.25 / Math.sqrt(35 / 48), 12);
    // 95% t interval: 0.25 ± t(0.975, 3) · √(35/48) = 0.25 ± 3.182446305 · 0.853912… = [−2.46753, +2.96753]
    // (t(0.975, 3) from a t table, scipy.stats.t.ppf(0.975, 3) = 3.182446305284263).
    expect(g.meanDifferenceCi!.lower).toBeCloseTo(-2.46753, 4);
    expect(g.meanDifferenceCi!.upper).toBeCloseTo(2.96753, 4);
  });

  it("gives no interval where there is no t-test (one item, or no spread)", () => {
    expect(goldAgreement([3], [2]).meanDifferenceCi).toBeNull();
    expect(goldAgreement([3, 3], [2, 2]).meanDifferenceCi).toBeNull();
  });

  it("says nothing of a rater without gold items", () => {
    expect(goldAgreement([], [])).toEqual({
      gold: 0,
      exact: null,
      withinOne: null,
      meanDifference: null,
      meanDifferenceCi: null,
      tStatistic: null,
      pValue: null,
      flagged: false,
    });
  });

  it("gives every per-rater value of gold-small's expected.json", () => {
    const raters = raterGoldAgreement(ratings, truth);
    expect([...raters.keys()]).toEqual(Object.keys(expected.raters));
    for (const [rater, want] of Object.entries(expected.raters) as [string, Record<string, number>][]) {
      const got = raters.get(rater)!;
      expect(got.gold).toBe(want.gold);
      for (const key of ["exact", "withinOne", "meanDifference", "tStatistic"] as const)
        expect(got[key]).toBeCloseTo(want[key], 12);
      expect(Math.abs(got.pValue! - want.pValue) / want.pValue).toBeLessThan(1e-6);
      expect(got.flagged).toBe(want.pValue < 0.01);
      // The interval leaves out 0 exactly when scipy's p is below 0.05 (the same t and degrees of freedom).
      const { lower, upper } = got.meanDifferenceCi!;
      expect(lower > 0 || upper < 0).toBe(want.pValue < 0.05);
      expect((lower + upper) / 2).toBeCloseTo(want.meanDifference, 12);
    }
    // The biased (E00) and the noisy (E01) raters are flagged, and E03 (p = 0.0067) with them.
    expect([...raters].filter(([, g]) => g.flagged).map(([r]) => r)).toEqual(["E00", "E01", "E03"]);
  });

  it("gives each aggregation's gold accuracy of expected.json, Dawid–Skene within its tolerance", () => {
    const labels = new Map(aggregationMethods.map((m) => [m, aggregateItems(ratings, m)]));
    const accuracy = aggregationAccuracy(labels, truth, { B: 500, seed: 1 });
    expect(expected.goldItems).toBe(truth.size);
    for (const m of ["median", "majority", "mean"] as const)
      expect(accuracy.get(m)!.accuracy).toBeCloseTo(expected.aggregation[m].accuracy, 12);
    const ds = expected.aggregation["dawid-skene"];
    expect(Math.abs(accuracy.get("dawid-skene")!.accuracy - ds.accuracy)).toBeLessThanOrEqual(ds.tolerance);
    for (const { accuracy: a, ci } of accuracy.values()) expect(ci!.lower <= a && a <= ci!.upper).toBe(true);
  });

  it("gives per-proposal average-vote differences, fewest judgements and pooled variance, worked by hand", () => {
    // p1: item a grades 1, 3 (truth 1; average 2, difference 1), item b grades 2, 2, 2 (no truth);
    //   fewest judgements 2; pooled variance = (1·2 + 2·0)/(1 + 2) = 2/3.
    // p2: item c grade 4 (truth 4; difference 0); one grade, so no pooled variance.
    const small: GradedRating[] = [
      { item: "p1:a", rater: "x", grade: 1 },
      { item: "p1:a", rater: "y", grade: 3 },
      { item: "p1:b", rater: "x", grade: 2 },
      { item: "p1:b", rater: "y", grade: 2 },
      { item: "p1:b", rater: "z", grade: 2 },
      { item: "p2:c", rater: "x", grade: 4 },
    ];
    const byProposal = proposalGoldAgreement(
      small,
      new Map([
        ["p1:a", 1],
        ["p2:c", 4],
      ]),
      (item) => item.split(":")[0],
    );
    expect(byProposal.get("p1")).toMatchObject({
      gold: 1,
      exact: 0,
      withinOne: 1,
      meanDifference: 1,
      tStatistic: null,
      items: 2,
      minJudgements: 2,
    });
    expect(byProposal.get("p1")!.pooledVariance).toBeCloseTo(2 / 3, 12);
    expect(byProposal.get("p2")).toMatchObject({
      gold: 1,
      exact: 1,
      meanDifference: 0,
      minJudgements: 1,
      pooledVariance: null,
    });
  });
});
