import { createRng } from "../lib/random";
import {
  abSampleSize,
  adjustedAlpha,
  cupedVarianceFactor,
  designEffect,
  interleavingSessions,
  intraClassCorrelation,
  minimumDetectableEffect,
  twoProportionN,
} from "./power";
import { normalQuantile } from "../stats/distributions";
import { prePeriodRho } from "./power-history";

describe("normal quantile", () => {
  it("matches scipy's norm.ppf", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 12);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 9);
  });
});

describe("two-proportion sample size (pooled variance under H0, as R's power.prop.test)", () => {
  it("matches the formula worked by hand", () => {
    // p1 = 0.3, p2 = 0.4, α = 0.05, power 0.8: p̄ = 0.35, √(2·0.35·0.65) = 0.6745369, × 1.959964 = 1.3220675;
    // √(0.21 + 0.24) = 0.6708204, × 0.8416212 = 0.5645763; (1.3220675 + 0.5645763)² / 0.1² = 355.9428.
    expect(twoProportionN(0.3, 0.4)).toBeCloseTo(355.9428127, 5);
    // A 10% relative lift on 0.3: 0.3 → 0.33 needs 3762.36 per arm.
    expect(twoProportionN(0.3, 0.33)).toBeCloseTo(3762.3586807, 4);
  });

  it("gives the asked power in a seeded simulation of the pooled z-test at the computed n", () => {
    const n = Math.ceil(twoProportionN(0.3, 0.4));
    const rng = createRng("power-simulation");
    const runs = 2000;
    let rejections = 0;
    for (let r = 0; r < runs; r++) {
      let a = 0;
      let b = 0;
      for (let i = 0; i < n; i++) {
        if (rng.next() < 0.3) a++;
        if (rng.next() < 0.4) b++;
      }
      const pooled = (a + b) / (2 * n);
      const z = (b - a) / n / Math.sqrt((pooled * (1 - pooled) * 2) / n);
      if (Math.abs(z) > 1.959963984540054) rejections++;
    }
    const power = rejections / runs;
    console.log(`simulated power at n = ${n} per arm: ${power}`);
    expect(Math.abs(power - 0.8)).toBeLessThan(0.03);
  });

  it("scales by the design effect for several sessions per convener", () => {
    expect(designEffect(5, 0.1)).toBeCloseTo(1.4, 12);
    const plan = abSampleSize(0.3, 0.4, 5, 0.1);
    // 355.94 × 1.4 = 498.32 → 499 sessions per arm, in ⌈499 / 5⌉ = 100 conveners.
    expect(plan.sessionsPerArm).toBe(499);
    expect(plan.convenersPerArm).toBe(100);
    expect(abSampleSize(0.3, 0.4).convenersPerArm).toBe(356);
  });

  it("inverts to the minimum detectable effect", () => {
    const mde = minimumDetectableEffect(0.3, 355.9428127)!;
    expect(mde).toBeCloseTo(0.1, 6);
    expect(minimumDetectableEffect(0.3, 3)).toBeNull();
  });
});

describe("intra-class correlation (one-way ANOVA estimator)", () => {
  it("matches a hand-worked example with unequal groups", () => {
    // Groups [1,1,1], [0,0], [1,0,0,1]: N = 9, k = 3, grand mean 5/9.
    // SSB = 3(1 − 5/9)² + 2(5/9)² + 4(1/2 − 5/9)² = 0.592593 + 0.617284 + 0.012346 = 1.222222; MSB = 0.611111.
    // SSW = 0 + 0 + 4·0.25 = 1; MSW = 1/6. n0 = (9 − (9 + 4 + 16)/9)/2 = 2.888889.
    // ICC = (0.611111 − 0.166667) / (0.611111 + 1.888889 · 0.166667) = 0.444444 / 0.925926 = 0.48.
    expect(
      intraClassCorrelation([
        [1, 1, 1],
        [0, 0],
        [1, 0, 0, 1],
      ]),
    ).toBeCloseTo(0.48, 10);
    expect(intraClassCorrelation([[1, 0]])).toBeNull();
  });

  it("finds no correlation in independent outcomes and a strong one in convener-level habits", () => {
    const rng = createRng("icc");
    const independent = Array.from({ length: 300 }, () =>
      Array.from({ length: 6 }, () => (rng.next() < 0.3 ? 1 : 0)),
    );
    expect(Math.abs(intraClassCorrelation(independent)!)).toBeLessThan(0.05);
    const clustered = Array.from({ length: 300 }, () => {
      const p = rng.next() < 0.5 ? 0.1 : 0.5;
      return Array.from({ length: 6 }, () => (rng.next() < p ? 1 : 0));
    });
    // Between-convener variance 0.04 over total 0.3·0.7 = 0.21: ICC ≈ 0.19.
    expect(intraClassCorrelation(clustered)!).toBeGreaterThan(0.12);
  });
});

describe("interleaving sessions", () => {
  it("uses the one-sample normal approximation against 0.5", () => {
    // (1.959964·0.5 + 0.841621·√(0.55·0.45))² / 0.05² = (0.979982 + 0.418702)² / 0.0025 = 782.53 → 783.
    expect(interleavingSessions(0.55)).toBe(783);
    expect(() => interleavingSessions(0.5)).toThrow(/not 0.5/);
  });
});

describe("power with CUPED and slices, against hand computation", () => {
  // p1 = 0.3, p2 = 0.35, α = 0.05, power 0.8: p̄ = 0.325, √(2·0.325·0.675) = 0.6623821, × 1.959964 = 1.2982458;
  // √(0.21 + 0.2275) = 0.6614378, × 0.8416212 = 0.5566824; (1.8549282)² / 0.05² = 1376.2989 per arm.
  const plain = 1376.2988683;
  it("CUPED with ρ = 0.5 needs 1 − ρ² = 75% of the observations", () => {
    expect(twoProportionN(0.3, 0.35)).toBeCloseTo(plain, 5);
    expect(cupedVarianceFactor(0.5)).toBe(0.75);
    expect(cupedVarianceFactor(-0.5)).toBe(0.75);
    const plan = abSampleSize(0.3, 0.35, 1, 0, { varianceFactor: 0.75 });
    expect(plan.effectiveN).toBeCloseTo(0.75 * plain, 4); // 1032.2242
    expect(plan.convenersPerArm).toBe(1033);
    expect(() => cupedVarianceFactor(1.2)).toThrow(/between −1 and 1/);
  });

  it("four slices read at α/4 = 0.0125: z(1 − 0.00625) = 2.4977055 in place of 1.959964", () => {
    expect(adjustedAlpha(0.05, 4)).toBe(0.0125);
    // (2.4977055·0.6623821 + 0.5566824)² / 0.05² = (1.6544558 + 0.5566824)² / 0.0025 = 1955.6126.
    expect(abSampleSize(0.3, 0.35, 1, 0, { alpha: adjustedAlpha(0.05, 4) }).effectiveN).toBeCloseTo(
      1955.6125786,
      3,
    );
    expect(() => adjustedAlpha(0.05, 0)).toThrow(/at least 1/);
    expect(() => adjustedAlpha(0.05, 2.5)).toThrow(/whole number/);
  });

  it("the MDE with CUPED is the MDE of n / (1 − ρ²) observations", () => {
    // 1032.2242 observations with ρ = 0.5 are worth 1376.2989 without CUPED: the MDE is 0.05 again.
    expect(minimumDetectableEffect(0.3, 0.75 * plain, { varianceFactor: 0.75 })).toBeCloseTo(0.05, 6);
    expect(minimumDetectableEffect(0.3, plain)).toBeCloseTo(0.05, 6);
    const sliced = minimumDetectableEffect(0.3, 1955.6125786, { alpha: 0.0125 });
    expect(sliced).toBeCloseTo(0.05, 6);
  });
});

describe("prePeriodRho", () => {
  it("correlates conveners' adoption share with their own pre-period share, by hand", () => {
    // Pre shares 1/2, 0/2, 2/2, 1/2 and post shares 1, 0, 1, 0: Σdxdy = 0.5, Σdx² = 0.5, Σdy² = 1, ρ = 1/√2.
    const pair = (preWins: number, postWins: number) => ({
      pre: { sessions: 2, successfulSessions: preWins },
      post: { sessions: 1, successfulSessions: postWins },
    });
    const noPre = {
      pre: { sessions: 0, successfulSessions: 0 },
      post: { sessions: 3, successfulSessions: 3 },
    };
    const pairs = [pair(1, 1), pair(0, 0), pair(2, 1), pair(1, 0), noPre];
    expect(prePeriodRho(pairs, 2)).toEqual({
      rho: expect.closeTo(Math.SQRT1_2, 14),
      conveners: 4,
      experiments: 2,
    });
    expect(prePeriodRho(pairs.slice(0, 2), 1)).toBeNull();
    expect(prePeriodRho([pair(1, 1), pair(1, 0), pair(1, 1)], 1)).toBeNull();
  });
});
