import { compareRuns, type NamedEvaluation } from "./compare-runs";
import { aggregationOf, type Evaluation } from "./evaluate";
import { parseMeasure } from "./measures";

/** A run's evaluation made by hand: one column per measure, the values per query given. */
function evaluation(qids: string[], columns: Record<string, number[]>): Evaluation {
  return {
    qids,
    columns: Object.entries(columns).map(([name, values]) => {
      const measure = parseMeasure(name);
      return { measure, aggregation: aggregationOf(measure), values: Float64Array.from(values) };
    }),
  };
}

const six = ["q1", "q2", "q3", "q4", "q5", "q6"];
const run = (name: string, values: number[], qids = six): NamedEvaluation => ({
  name,
  evaluation: evaluation(qids, { "nDCG@10": values }),
});

// Exact sign-flip p-values over 2^6 = 64 sign patterns, worked by hand:
//  B − A = six × +0.25: only the two patterns of one sign reach |Σ| = 1.5, p = 2/64 = 0.03125;
//  C − A = five × +0.5 and one 0: |Σ| = 2.5 needs the five of one sign, either sign of the 0: p = 4/64 = 0.0625;
//  C − B = five × +0.25 and one −0.25: |Σ| ≥ 1 for at most one sign against the rest: 2 × (1 + 6) = 14, p = 0.21875.
// Holm over the three: 3 × 0.03125 = 0.09375, max(0.09375, 2 × 0.0625) = 0.125, max(0.125, 0.21875) = 0.21875.
const A = run("A", [0, 0, 0, 0, 0, 0]);
const B = run("B", [0.25, 0.25, 0.25, 0.25, 0.25, 0.25]);
const C = run("C", [0.5, 0.5, 0.5, 0.5, 0.5, 0]);

describe("compareRuns", () => {
  it("Holm-adjusts the p-values of a measure's pairs as worked by hand", () => {
    const report = compareRuns([A, B, C], { test: "permutation", alpha: 0.1 });
    const byPair = Object.fromEntries(report.pairs.map((p) => [`${p.a}-${p.b}`, p]));
    expect(byPair["A-B"]).toMatchObject({
      queries: 6,
      pValue: 0.03125,
      pAdjusted: 0.09375,
      significant: true,
      better: "B",
    });
    expect(byPair["A-C"]).toMatchObject({
      pValue: 0.0625,
      pAdjusted: 0.125,
      significant: false,
      better: null,
    });
    expect(byPair["B-C"]).toMatchObject({
      pValue: 0.21875,
      pAdjusted: 0.21875,
      significant: false,
      better: null,
    });
    expect(report.runs.map((r) => r.better["nDCG@10"])).toEqual([[], ["A"], []]);
    expect(report.runs.map((r) => r.letter)).toEqual(["a", "b", "c"]);
  });

  it("drops a mark that the raw p-value gives once Holm's adjustment is applied", () => {
    const report = compareRuns([A, B, C], { test: "permutation", alpha: 0.05 });
    const ab = report.pairs.find((p) => p.a === "A" && p.b === "B")!;
    expect(ab.pValue).toBeLessThanOrEqual(0.05);
    expect(ab.pAdjusted).toBeGreaterThan(0.05);
    expect(report.runs.every((r) => r.better["nDCG@10"].length === 0)).toBe(true);
    // Two runs alone: one pair, nothing to adjust, and the mark stands.
    const two = compareRuns([A, B], { test: "permutation", alpha: 0.05 });
    expect(two.pairs[0]).toMatchObject({ pValue: 0.03125, pAdjusted: 0.03125, better: "B" });
    expect(two.runs[1].better["nDCG@10"]).toEqual(["A"]);
  });

  it("marks the lower value as the better one for Rank(g), and leaves untestable measures unmarked", () => {
    const qids = ["q1", "q2", "q3", "q4", "q5", "q6"];
    const low = {
      name: "low",
      evaluation: evaluation(qids, {
        Rank: [1, 1, 2, 1, 1, 2],
        "Coverage@10": [NaN, NaN, NaN, NaN, NaN, NaN],
      }),
    };
    const high = {
      name: "high",
      evaluation: evaluation(qids, {
        Rank: [5, 6, 5, 7, 5, 6],
        "Coverage@10": [NaN, NaN, NaN, NaN, NaN, NaN],
      }),
    };
    const report = compareRuns([low, high], { test: "permutation" });
    expect(report.measures[0]).toBe("Rank(g=1)");
    expect(report.runs.map((r) => r.better["Rank(g=1)"])).toEqual([["high"], []]);
    expect(report.untested).toEqual(["Coverage@10"]);
    expect(report.lowerIsBetter).toEqual([report.measures[0]]);
    expect(report.pairs).toHaveLength(1);
  });

  it("tests each pair on the queries both runs have, and says the query sets differ", () => {
    // D lacks q6, where C and A tie: C − A on q1..q5 is five × +0.5, p = 2/32.
    const D = run("D", [0.5, 0.5, 0.5, 0.5, 0.5], six.slice(0, 5));
    const report = compareRuns([A, D], { test: "permutation" });
    expect(report.sameQueries).toBe(false);
    expect(report.pairs[0]).toMatchObject({ queries: 5, pValue: 0.0625, meanA: 0, meanB: 0.5 });
    expect(report.runs.map((r) => r.queries)).toEqual([6, 5]);
    expect(compareRuns([A, B]).sameQueries).toBe(true);
  });

  it("gives a pair with fewer than two shared queries no test rather than an error", () => {
    const report = compareRuns([run("x", [1], ["q1"]), run("y", [0.5], ["q1"])]);
    expect(report.pairs[0]).toMatchObject({ queries: 1, pValue: null, pAdjusted: null, better: null });
  });
});
