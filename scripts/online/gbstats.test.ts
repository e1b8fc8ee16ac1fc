import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  armStatistics,
  bayesianTest,
  sequentialTest,
  tTest,
  type DifferenceType,
  type GaussianPrior,
  type RatioSums,
} from "./gbstats";

// Reference: test/fixtures/cuped-small/expected.json, gbstats 0.8.0 (growthbook/growthbook 8f1db445) run
// on the per-arm sums under GrowthBook's SQL column names (README there).
const expected = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../test/fixtures/cuped-small/expected.json"), "utf8"),
);

/** GrowthBook's SQL row of an arm as Assay's sums. */
export function sumsFromGrowthBookRow(r: Record<string, number>): RatioSums {
  return {
    n: r.count,
    mSum: r.main_sum,
    mSquares: r.main_sum_squares,
    dSum: r.denominator_sum,
    dSquares: r.denominator_sum_squares,
    mdProducts: r.main_denominator_sum_product,
    mPreSum: r.covariate_sum,
    mPreSquares: r.covariate_sum_squares,
    dPreSum: r.denominator_pre_sum,
    dPreSquares: r.denominator_pre_sum_squares,
    mPostMPre: r.main_covariate_sum_product,
    mPostDPre: r.main_post_denominator_pre_sum_product,
    mPreDPost: r.main_pre_denominator_post_sum_product,
    mPreDPre: r.main_pre_denominator_pre_sum_product,
    dPostDPre: r.denominator_post_denominator_pre_sum_product,
  };
}

/** Within 1e-6 relative (or 1e-12 absolute, for values at zero). */
function close(actual: number, wanted: number, what: string) {
  const tolerance = Math.max(1e-6 * Math.abs(wanted), 1e-12);
  expect(Math.abs(actual - wanted), `${what}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(tolerance);
}

function closeAll(actual: Record<string, unknown>, wanted: Record<string, unknown>, what: string) {
  for (const [key, value] of Object.entries(wanted)) {
    if (typeof value === "number") close(actual[key] as number, value, `${what}.${key}`);
    else if (Array.isArray(value))
      value.forEach((v, i) => close((actual[key] as number[])[i], v as number, `${what}.${key}[${i}]`));
  }
}

const properPrior: GaussianPrior = { mean: 0, variance: 0.09, proper: true, type: "relative" };

describe("gbstats ratio metrics, with and without CUPED, equal gbstats 0.8.0 to 1e-6", () => {
  for (const [metric, m] of Object.entries<Record<string, never>>(expected.metrics)) {
    const sums = m.sums as Record<string, Record<string, number>>;
    const a = sumsFromGrowthBookRow(sums.A);
    const b = sumsFromGrowthBookRow(sums.B);
    const inverse = m.inverse as boolean;
    for (const mode of ["unadjusted", "cuped"] as const) {
      it(`${metric} ${mode}`, () => {
        const want = m[mode] as Record<string, Record<string, Record<string, unknown>>>;
        const stats = armStatistics(a, b, mode === "cuped");
        if (mode === "cuped") close(stats.theta!, want.theta as unknown as number, "theta");
        for (const difference of ["absolute", "relative"] as DifferenceType[]) {
          const where = `${metric}.${mode}.${difference}`;
          const freq = tTest(stats.control, stats.treatment, difference);
          expect("reason" in freq).toBe(false);
          closeAll(
            { ...freq, expected: (freq as { effect: number }).effect },
            want.frequentist[difference],
            `${where}.t`,
          );
          const seq = sequentialTest(stats.control, stats.treatment, difference, 0.05, 5000);
          closeAll(seq as unknown as Record<string, unknown>, want.sequential[difference], `${where}.seq`);
          const flat = bayesianTest(stats.control, stats.treatment, difference, { inverse });
          closeAll(flat as unknown as Record<string, unknown>, want.bayesian[difference], `${where}.bayes`);
          const proper = bayesianTest(stats.control, stats.treatment, difference, {
            inverse,
            prior: properPrior,
          });
          closeAll(
            proper as unknown as Record<string, unknown>,
            want.bayesianProperPrior[difference],
            `${where}.properPrior`,
          );
        }
      });
    }
  }
});

describe("gbstats edge cases", () => {
  const one: RatioSums = {
    n: 1,
    mSum: 2,
    mSquares: 4,
    dSum: 10,
    dSquares: 100,
    mdProducts: 20,
    mPreSum: 0,
    mPreSquares: 0,
    dPreSum: 0,
    dPreSquares: 0,
    mPostMPre: 0,
    mPostDPre: 0,
    mPreDPost: 0,
    mPreDPre: 0,
    dPostDPre: 0,
  };
  it("an arm of one unit has no variance, and the test says so instead of a number", () => {
    const stats = armStatistics(one, one, false);
    expect(tTest(stats.control, stats.treatment, "absolute")).toEqual({
      reason: expect.stringContaining("zero variance"),
    });
  });
  it("no pre-period data at all: θ = 0 and CUPED falls back to the plain ratio, as gbstats does", () => {
    const stats = armStatistics({ ...one, n: 3 }, { ...one, n: 3, mSum: 3, mSquares: 5 }, true);
    expect(stats.theta).toBe(0);
    expect(stats.control.cuped).toBeUndefined();
  });
});
