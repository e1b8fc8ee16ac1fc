import fs from "node:fs";
import path from "node:path";
import { holm, pairedTTest, signFlipPermutation, wilcoxonSignedRank } from "./paired";
import { sampleRatioMismatch } from "../online/srm";
import { parseMeasures } from "../eval/measures";
import { evaluateQueries } from "../eval/evaluate";
import { parseQrels, parseRun, runQueries } from "../eval/trec";

// Reference values: scipy 1.17 (test/fixtures/trec-small/compare-expected.json).
const dir = path.join(__dirname, "../../test/fixtures/trec-small");
const expected = JSON.parse(fs.readFileSync(path.join(dir, "compare-expected.json"), "utf8"));
const rel = (actual: number, wanted: number) => Math.abs(actual / wanted - 1);

function ndcgPerQuery(runFile: string) {
  const qrels = parseQrels(fs.readFileSync(path.join(dir, "qrels.txt"), "utf8"));
  const queries = runQueries(parseRun(fs.readFileSync(path.join(dir, runFile))), qrels, { complete: true });
  return evaluateQueries(queries, parseMeasures(["nDCG@10"])).columns[0].values;
}

describe("paired comparison of run vs runB on nDCG@10 (complete mode)", () => {
  const a = ndcgPerQuery("run.txt");
  const b = ndcgPerQuery("runB.txt");

  it("has the reference's queries and means", () => {
    expect(a.length).toBe(expected.queries);
    expect(rel(a.reduce((s, x) => s + x, 0) / a.length, expected.meanA)).toBeLessThan(1e-6);
    expect(rel(b.reduce((s, x) => s + x, 0) / b.length, expected.meanB)).toBeLessThan(1e-6);
  });

  it("paired t-test matches scipy.stats.ttest_rel", () => {
    const t = pairedTTest(a, b);
    expect(rel(t.statistic, expected.t.statistic)).toBeLessThan(1e-6);
    expect(rel(t.pValue, expected.t.pValue)).toBeLessThan(1e-6);
  });

  it("Wilcoxon (normal approximation, zeros dropped, tie-corrected) matches scipy", () => {
    const w = wilcoxonSignedRank(Array.from(b, (x, i) => x - a[i]));
    expect(w.n).toBe(expected.wilcoxon.n);
    expect(w.method).toMatch(/normal approximation/);
    expect(rel(w.pValue, expected.wilcoxon.pValue)).toBeLessThan(1e-6);
  });
});

describe("exact tests", () => {
  it("exact sign-flip permutation p on 16 differences", () => {
    const p = signFlipPermutation(expected.permutationExact16.diffs);
    expect(p.method).toBe("exact sign-flip");
    expect(rel(p.pValue, expected.permutationExact16.pValue)).toBeLessThan(1e-6);
  });

  it("exact Wilcoxon p on 12 untied differences", () => {
    const w = wilcoxonSignedRank(expected.wilcoxonExact12.diffs);
    expect(w.method).toBe("exact");
    expect(rel(w.pValue, expected.wilcoxonExact12.pValue)).toBeLessThan(1e-6);
  });

  it("Monte Carlo permutation beyond 20 pairs is seeded and uses (b+1)/(B+1)", () => {
    const d = Array.from({ length: 30 }, (_, i) => (i % 3) - 0.5);
    const one = signFlipPermutation(d, { B: 999, seed: 7 });
    expect(one).toEqual(signFlipPermutation(d, { B: 999, seed: 7 }));
    expect(one.method).toMatch(/Monte Carlo/);
    expect(one.pValue * 1000).toBeCloseTo(Math.round(one.pValue * 1000), 9);
  });
});

describe("Holm correction", () => {
  it("adjusts step-down and keeps the input order", () => {
    // hand-worked: sorted 0.01, 0.02, 0.04 → 0.03, 0.04, 0.04
    expect(holm([0.04, 0.01, 0.02])).toEqual([0.04, 0.03, 0.04]);
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
  });
});

describe("SRM", () => {
  it("χ² and p match the online-small reference", () => {
    const ref = JSON.parse(
      fs.readFileSync(path.join(__dirname, "../../test/fixtures/online-small/expected.json"), "utf8"),
    ).srm;
    const srm = sampleRatioMismatch(ref.units, { A: 0.5, B: 0.5 });
    expect(rel(srm.chi2, ref.chi2)).toBeLessThan(1e-9);
    expect(rel(srm.pValue, ref.pValue)).toBeLessThan(1e-6);
    expect(srm.mismatch).toBe(false);
    expect(sampleRatioMismatch({ A: 1000, B: 800 }, { A: 0.5, B: 0.5 }).mismatch).toBe(true);
  });
});
