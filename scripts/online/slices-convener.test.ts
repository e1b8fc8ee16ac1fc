import { describe, expect, it } from "vitest";
import { DEFAULT_DECISION_SETTINGS, type TestOutcome } from "./decide";
import { decideSlices, NO_VALUE_SLICE, sliceByUnit } from "./slices";
import type { UnitTotals } from "./report";

/**
 * Slices by a convener attribute on a case small enough to work by hand. Nine conveners, one session
 * each, 10 candidates shown; adoptions equal clicks, so CTR and adoption rate read alike; every session
 * succeeds with rank 1, so those two metrics have no variance and no test.
 *   ETH:  A clicks 2, 4 (CTR 0.3); B clicks 5, 7 (CTR 0.6): change +100%.
 *   EPFL: A clicks 1, 3 (0.2);     B clicks 3, 1 (0.2):     change 0.
 *   u9 (A) has no institution: "(no value)", one arm only, too few.
 * Per unit, CTR's variance is var(clicks)/10² = 2/100 in each arm and slice (d is constant), so the
 * relative change's variance is 0.01/0.3² + 0.6²·0.01/0.3⁴ = 5/9 (ETH), Welch's dof is 2, and with 2
 * degrees of freedom the two-sided p of t is 1 − t/√(t² + 2): ETH t = 1/√(5/9) = 1.3416, p = 0.31175;
 * EPFL t = 0, p = 1. Four p-values (two slices × CTR and adoption): Holm multiplies the smallest by 4
 * (capped at 1), so every adjusted p is 1; Benjamini–Hochberg gives ETH 0.31175 · 4/2 = 0.62351.
 */
const unit = (id: string, arm: string, clicked: number): UnitTotals => ({
  unit: id,
  arm,
  sessions: 1,
  shown: 10,
  clicked,
  adopted: clicked,
  adoptedRankSum: clicked,
  successfulSessions: 1,
});
const units = [
  unit("u1", "A", 2),
  unit("u2", "A", 4),
  unit("u3", "B", 5),
  unit("u4", "B", 7),
  unit("u5", "A", 1),
  unit("u6", "A", 3),
  unit("u7", "B", 3),
  unit("u8", "B", 1),
  unit("u9", "A", 5),
];
const institution = new Map([
  ["u1", "ETH"],
  ["u2", "ETH"],
  ["u3", "ETH"],
  ["u4", "ETH"],
  ["u5", "EPFL"],
  ["u6", "EPFL"],
  ["u7", "EPFL"],
  ["u8", "EPFL"],
]);
const tP = (t: number) => 1 - t / Math.sqrt(t * t + 2);
const pOf = (o: TestOutcome) => (o.kind === "frequentist" ? o.pValue : null);

describe("slices by a convener attribute", () => {
  const slices = sliceByUnit(units, institution);

  it("puts each convener wholly in the slice of their value, one without a value in its own", () => {
    expect(new Map([...slices].map(([k, us]) => [k, us.map((u) => u.unit)]))).toEqual(
      new Map([
        ["ETH", ["u1", "u2", "u3", "u4"]],
        ["EPFL", ["u5", "u6", "u7", "u8"]],
        [NO_VALUE_SLICE, ["u9"]],
      ]),
    );
  });

  it("gives each slice its change, p and adjusted p as worked out by hand", () => {
    const holm = decideSlices(slices, "A", DEFAULT_DECISION_SETTINGS, { minUnits: 2 });
    expect(holm.slices.map((s) => [s.slice, s.tooFew])).toEqual([
      [NO_VALUE_SLICE, true],
      ["EPFL", false],
      ["ETH", false],
    ]);
    expect(holm.slices[0]).toMatchObject({
      units: { A: 1 },
      reason: "too few conveners: 0 in an arm, at least 2 needed",
    });
    const eth = holm.slices[2];
    if (eth.tooFew) throw new Error("ETH has enough conveners");
    const ctr = eth.decisions.find((d) => d.metric === "ctr")!;
    expect(ctr.baseline).toBeCloseTo(0.3, 12);
    expect(ctr.variation).toBeCloseTo(0.6, 12);
    const rel = ctr.unadjusted.relative;
    expect(rel.kind === "frequentist" && rel.effect).toBeCloseTo(1, 12);
    expect(pOf(rel)).toBeCloseTo(tP(1 / Math.sqrt(5 / 9)), 9);
    expect(pOf(rel)).toBeCloseTo(0.31175, 5);
    const epfl = holm.slices[1];
    if (epfl.tooFew) throw new Error("EPFL has enough conveners");
    expect(pOf(epfl.decisions.find((d) => d.metric === "ctr")!.unadjusted.relative)).toBeCloseTo(1, 9);
    expect(holm.comparisons).toBe(4);
    for (const s of [eth, epfl])
      for (const d of s.decisions) if (d.adjustedP !== null) expect(d.adjustedP).toBe(1);

    const bh = decideSlices(slices, "A", DEFAULT_DECISION_SETTINGS, { minUnits: 2, correction: "bh" });
    const bhEth = bh.slices[2];
    if (bhEth.tooFew) throw new Error("ETH has enough conveners");
    expect(bhEth.decisions.find((d) => d.metric === "ctr")!.adjustedP).toBeCloseTo(0.31175 * 2, 4);
    expect(bhEth.decisions.find((d) => d.metric === "adoptionRate")!.adjustedP).toBeCloseTo(0.31175 * 2, 4);
  });
});
