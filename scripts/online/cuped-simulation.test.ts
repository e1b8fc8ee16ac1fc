import { describe, expect, it } from "vitest";
import { createRng, normal, type Rng } from "../lib/random";
import { ratioSums } from "./decide";
import { armStatistics, tTest } from "./gbstats";
import { emptySums, type SessionSums, type UnitTotals } from "./report";

/**
 * Seeded simulations of CUPED on the CTR of `units` conveners: each convener has their own click
 * propensity (a logit-normal around 12%), kept from the pre-period into the experiment, which is what
 * makes the pre-period predictive; a quarter of the conveners have no pre-period at all (covariate 0).
 * Arms are split at random; B's conveners click `lift` times as often.
 */
function simulate(seed: string, lift: number, units = 200) {
  const rng = createRng(seed);
  const post: UnitTotals[] = [];
  const pre = new Map<string, SessionSums>();
  const period = (p: number, r: Rng): SessionSums => {
    const s = emptySums();
    const sessions = 1 + r.int(4);
    for (let k = 0; k < sessions; k++) {
      const shown = 5 + r.int(20);
      let clicked = 0;
      for (let i = 0; i < shown; i++) if (r.next() < p) clicked++;
      s.sessions++;
      s.shown += shown;
      s.clicked += clicked;
    }
    return s;
  };
  for (let u = 0; u < units; u++) {
    const unit = `convener-${u}`;
    const p = 1 / (1 + Math.exp(-(Math.log(0.12 / 0.88) + 0.8 * normal(rng))));
    const arm = rng.next() < 0.5 ? "A" : "B";
    if (rng.next() < 0.75) pre.set(unit, period(p, rng));
    post.push({ unit, arm, ...period(Math.min(1, arm === "B" ? p * lift : p), rng) });
  }
  const a = ratioSums(
    post.filter((u) => u.arm === "A"),
    "ctr",
    pre,
  );
  const b = ratioSums(
    post.filter((u) => u.arm === "B"),
    "ctr",
    pre,
  );
  const p = (cuped: boolean) => {
    const s = armStatistics(a, b, cuped);
    const r = tTest(s.control, s.treatment, "absolute", 0.05);
    return "reason" in r ? 1 : r.pValue;
  };
  return { plain: p(false), cuped: p(true) };
}

function rejectionRates(lift: number, runs: number, units = 200) {
  let plain = 0;
  let cuped = 0;
  for (let i = 0; i < runs; i++) {
    const r = simulate(`cuped-${lift}-${i}`, lift, units);
    if (r.plain < 0.05) plain++;
    if (r.cuped < 0.05) cuped++;
  }
  return { plain: plain / runs, cuped: cuped / runs };
}

// At 1,000 conveners the delta-method t-test holds its level; at 200 it does not quite, CUPED or not
// (A/A rejections 6.8% unadjusted, 7.8% CUPED: docs/statistics.md), a small-sample limit gbstats shares.
describe("CUPED in 500 seeded simulated experiments of 1,000 conveners", () => {
  it("A/A: the false-positive rate stays at or below α = 0.05 (4.6% with CUPED, 4.2% without)", () => {
    const rates = rejectionRates(1, 500, 1000);
    // Seeded, so the figures are fixed: docs/statistics.md quotes them.
    expect(rates.cuped).toBeLessThanOrEqual(0.05);
    expect(rates.plain).toBeLessThanOrEqual(0.05);
  });

  it("a known 15% lift in CTR: CUPED detects it more often (89.8% against 76.2%)", () => {
    const rates = rejectionRates(1.15, 500, 1000);
    expect(rates.cuped).toBeGreaterThan(rates.plain + 0.1);
  });
});
