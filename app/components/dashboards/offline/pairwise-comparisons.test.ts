import { holmVerdict } from "./pairwise-comparisons";

describe("the pairwise verdict beside an unadjusted interval", () => {
  it("is the Holm verdict, and says so when the comparison alone would have been called", () => {
    // The demo's MRR@10, challenger − baseline: p 0.0037 alone, 0.070 after Holm over the table.
    expect(holmVerdict(0.105, 0.0037, 0.07, "higher")).toEqual({
      verdict: "inconclusive",
      verdictText: "inconclusive after Holm (better before)",
    });
    // A lower rank is better: a drop called before the adjustment reads "better before".
    expect(holmVerdict(-2, 0.01, 0.2, "lower").verdictText).toBe("inconclusive after Holm (better before)");
  });

  it("reads plainly when the adjustment changes nothing", () => {
    expect(holmVerdict(0.0735, 0.0001, 0.0009, "higher")).toEqual({
      verdict: "better",
      verdictText: "better",
    });
    expect(holmVerdict(-0.02, 0.001, 0.01, "higher")).toEqual({ verdict: "worse", verdictText: "worse" });
    expect(holmVerdict(0.01, 0.4, 0.9, "higher")).toEqual({
      verdict: "inconclusive",
      verdictText: "inconclusive",
    });
    expect(holmVerdict(null, null, null, "higher").verdictText).toBe("inconclusive");
  });
});
