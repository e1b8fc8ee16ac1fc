import { describe, expect, it } from "vitest";
import { adjustPValues } from "./multiple-testing";

// Expected values worked out by hand from the definitions (Holm 1979; Benjamini & Hochberg 1995):
// sorted 0.005, 0.01, 0.03, 0.04, 0.2 times 5..1 (Holm, then running max) or 5/rank (BH, then running min from the top).
const p = [0.01, 0.04, 0.03, 0.005, 0.2];

describe("adjusted p-values", () => {
  it("Holm: step-down, monotone, in the input order", () => {
    const got = adjustPValues(p, "holm") as number[];
    [0.04, 0.09, 0.09, 0.025, 0.2].forEach((v, i) => expect(got[i]).toBeCloseTo(v, 12));
  });
  it("Benjamini-Hochberg: step-up", () => {
    const got = adjustPValues(p, "bh") as number[];
    [0.025, 0.05, 0.05, 0.025, 0.2].forEach((v, i) => expect(got[i]).toBeCloseTo(v, 12));
  });
  it("a comparison without a p stays without one and is not counted", () => {
    expect(adjustPValues([0.01, null, 0.02], "holm")).toEqual([0.02, null, 0.02]);
  });
  it("refuses a value that is no probability", () => {
    expect(() => adjustPValues([1.2], "bh")).toThrow(/\[0, 1\], not 1.2/);
  });
});
