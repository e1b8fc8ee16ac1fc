import fs from "node:fs";
import path from "node:path";
import {
  chiSquareSurvival,
  normalCdf,
  normalTwoSidedP,
  studentTCritical,
  studentTTwoSidedP,
} from "./distributions";
import { wilcoxonSignedRank } from "./paired";
import { binomialTest } from "./binomial";
import { sampleRatioMismatch } from "../online/srm";

// Reference values: scipy 1.17.1 (test/fixtures/stats-edges/README.md), to be matched to 1e-6 relative.
const expected = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../test/fixtures/stats-edges/expected.json"), "utf8"),
);
const rel = (actual: number, wanted: number) => Math.abs(actual - wanted) / Math.abs(wanted);

describe("tail probabilities down to 1e-300 (scipy 1.17)", () => {
  it.each(expected.normalTwoSided as { z: number; p: number }[])(
    "two-sided normal p at z = $z",
    ({ z, p }) => {
      expect(rel(normalTwoSidedP(z), p)).toBeLessThan(1e-6);
      expect(rel(normalTwoSidedP(-z), p)).toBeLessThan(1e-6);
    },
  );

  it.each(expected.chiSquareSurvival as { x: number; df: number; p: number }[])(
    "χ² survival at x = $x, df = $df",
    ({ x, df, p }) => {
      expect(rel(chiSquareSurvival(x, df), p)).toBeLessThan(1e-6);
    },
  );

  it.each(expected.studentTTwoSided as { t: number; df: number; p: number }[])(
    "two-sided Student t at t = $t, df = $df",
    ({ t, df, p }) => {
      expect(rel(studentTTwoSidedP(t, df), p)).toBeLessThan(1e-6);
      expect(rel(studentTTwoSidedP(-t, df), p)).toBeLessThan(1e-6);
    },
  );

  it("keeps the near side and the edges right", () => {
    expect(normalTwoSidedP(0)).toBe(1);
    expect(normalCdf(0)).toBeCloseTo(0.5, 15);
    expect(rel(normalCdf(1.96), 0.9750021048517795)).toBeLessThan(1e-12);
    expect(chiSquareSurvival(0, 3)).toBe(1);
    expect(studentTTwoSidedP(Infinity, 5)).toBe(0);
    expect(rel(studentTTwoSidedP(0.1, 20), 0.9213399413456138)).toBeLessThan(1e-9);
  });

  it("an SRM χ² far in the tail is a tiny p, not 0", () => {
    const srm = sampleRatioMismatch({ A: 6000, B: 4000 }, { A: 0.5, B: 0.5 });
    expect(srm.chi2).toBe(400);
    expect(srm.pValue).toBeGreaterThan(0);
    expect(rel(srm.pValue, 5.507248237212379e-89)).toBeLessThan(1e-9); // scipy: chi2.sf(400, 1)
  });
});

describe("Wilcoxon signed-rank test as scipy 1.17's default wilcoxon(d)", () => {
  it.each(
    (expected.wilcoxon as { differences: number[]; statistic: number; p: number }[]).map(
      (c) => [c.differences.length, c] as const,
    ),
  )("n = %i: statistic and p-value", (_, { differences, statistic, p }) => {
    const w = wilcoxonSignedRank(differences);
    expect(w.statistic).toBe(statistic);
    expect(rel(w.pValue, p)).toBeLessThan(1e-6);
  });

  it("uses the exact distribution over tied ranks for small samples with ties or zeros", () => {
    expect(wilcoxonSignedRank([-2, -1, 0, 1, 2, 3, 4]).pValue).toBe(0.34375);
    expect(wilcoxonSignedRank([-2, -1, 0, 1, 2, 3, 4]).method).toContain("exact permutation");
  });

  it("gives a far-tail p of about 3.9e-18 at n = 100, not 0 or a multiple of 1.1e-16", () => {
    const w = wilcoxonSignedRank(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(rel(w.pValue, 3.896559845095909e-18)).toBeLessThan(1e-6); // scipy.stats.wilcoxon(range(1, 101))
  });
});

describe("binomialTest as scipy's binomtest (two-sided)", () => {
  it.each(expected.binomtest as { k: number; n: number; p: number }[])("k = $k of n = $n", ({ k, n, p }) => {
    expect(rel(binomialTest(k, n).pValue, p)).toBeLessThan(1e-6);
  });

  it("is 1 at the expected count, symmetric at p = 0.5, and refuses impossible counts", () => {
    expect(binomialTest(5, 10).pValue).toBe(1);
    expect(binomialTest(2, 10).pValue).toBeCloseTo(binomialTest(8, 10).pValue, 15);
    expect(() => binomialTest(11, 10)).toThrow("from 0 to 10");
    expect(() => binomialTest(1, 10, 1.5)).toThrow("between 0 and 1");
  });
});

describe("studentTCritical", () => {
  it("matches scipy's t.ppf(0.975, df)", () => {
    // scipy.stats.t.ppf(0.975, [1, 10, 29])
    expect(studentTCritical(0.95, 1)).toBeCloseTo(12.706204736174698, 9);
    expect(studentTCritical(0.95, 10)).toBeCloseTo(2.2281388519649385, 9);
    expect(studentTCritical(0.95, 29)).toBeCloseTo(2.045229642132703, 9);
  });
});
