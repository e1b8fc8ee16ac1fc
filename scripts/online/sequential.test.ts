import { createRng } from "../lib/random";
import { normalQuantile } from "../stats/distributions";
import { DEFAULT_N_STAR, sequentialHalfWidth, sequentialInterval, sequentialRhoSquared } from "./sequential";

describe("GrowthBook's asymptotic confidence sequence", () => {
  it("matches the published formula on worked numbers", () => {
    // α = 0.05, N* = 5000 (GrowthBook's defaults):
    //   −2 ln α = 5.991464547; ln(5.991464547 + 1) = 1.944691…; ρ² = (5.991464547 + 1.944691…) / 5000 = 0.00158723092.
    // A difference with variance V = 0.0004 (SE 0.02) after n = 1000 observations in all:
    //   s² = V·n = 0.4; nρ² + 1 = 2.58723092; ln(√2.58723092 / 0.05) = ln(32.1697…) = 3.47102635;
    //   half-width = √0.4 · √(2 · 2.58723092 · 3.47102635 / (1000² · 0.00158723092)) = 0.0672777545
    // (numpy with gbstats' sequential_interval_halfwidth(0.4, 1000, 5000, 0.05) gives the same digits).
    expect(DEFAULT_N_STAR).toBe(5000);
    expect(sequentialRhoSquared(0.05, 5000)).toBeCloseTo(0.001587230920347513, 15);
    expect(sequentialHalfWidth(0.0004, 1000)).toBeCloseTo(0.06727775451565562, 12);
    const ci = sequentialInterval(0.03, 0.0004, 1000, { alpha: 0.05, nStar: 5000 });
    expect(ci.lower).toBeCloseTo(0.03 - 0.06727775451565562, 12);
    expect(ci.upper).toBeCloseTo(0.03 + 0.06727775451565562, 12);
  });

  it("is wider than the fixed interval at every n, and tightest relative to it near N*", () => {
    const fixed = normalQuantile(0.975) * Math.sqrt(0.0004);
    expect(fixed).toBeCloseTo(0.0391992797, 9);
    const ratios = [100, 1000, 5000, 20000, 100000].map((n) => sequentialHalfWidth(0.0004, n) / fixed);
    for (const r of ratios) expect(r).toBeGreaterThan(1);
    expect(Math.min(...ratios)).toBe(ratios[2]);
  });

  it("rejects bad settings with a sentence", () => {
    expect(() => sequentialHalfWidth(0.01, 10, { alpha: 1.5 })).toThrow(/alpha must be between 0 and 1/);
    expect(() => sequentialHalfWidth(0.01, 10, { nStar: 0 })).toThrow(/N\* must be positive/);
    expect(() => sequentialHalfWidth(0.01, 0)).toThrow(/sample size must be at least 1/);
  });

  it("keeps the false-positive rate near α under daily peeking, where fixed intervals exceed it", () => {
    // 500 A/A experiments: 30 days, 10 new conveners per arm per day (300 per arm in the end), each
    // adopting with probability 0.3; after each day the difference and its CI are looked at, and the
    // experiment counts as a false positive if any look's interval excludes 0.
    const rng = createRng("sequential-aa");
    const experiments = 500;
    const z = normalQuantile(0.975);
    let fixedHits = 0;
    let sequentialHits = 0;
    let tunedHits = 0;
    for (let e = 0; e < experiments; e++) {
      let a = 0;
      let c = 0;
      let n = 0;
      let fixedHit = false;
      let sequentialHit = false;
      let tunedHit = false;
      for (let day = 0; day < 30; day++) {
        for (let i = 0; i < 10; i++) {
          if (rng.next() < 0.3) a++;
          if (rng.next() < 0.3) c++;
        }
        n += 10;
        const pa = a / n;
        const pc = c / n;
        const variance = (pa * (1 - pa)) / n + (pc * (1 - pc)) / n;
        if (variance === 0) continue;
        const diff = pa - pc;
        if (Math.abs(diff) > z * Math.sqrt(variance)) fixedHit = true;
        const ci = sequentialInterval(diff, variance, 2 * n);
        if (ci.lower > 0 || ci.upper < 0) sequentialHit = true;
        // N* tuned to this experiment's final size (600 conveners): narrower, still valid.
        const tuned = sequentialInterval(diff, variance, 2 * n, { nStar: 600 });
        if (tuned.lower > 0 || tuned.upper < 0) tunedHit = true;
      }
      if (fixedHit) fixedHits++;
      if (sequentialHit) sequentialHits++;
      if (tunedHit) tunedHits++;
    }
    const fixedRate = fixedHits / experiments;
    const sequentialRate = sequentialHits / experiments;
    const tunedRate = tunedHits / experiments;
    console.log(
      `A/A with daily looks over 30 days: false-positive rate fixed ${fixedRate}, sequential (N* 5000) ${sequentialRate}, sequential (N* 600) ${tunedRate}`,
    );
    expect(sequentialRate).toBeLessThanOrEqual(0.06);
    expect(tunedRate).toBeLessThanOrEqual(0.06);
    expect(fixedRate).toBeGreaterThan(0.1);
  });
});
