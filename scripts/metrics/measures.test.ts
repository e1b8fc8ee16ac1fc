import { formatMeasure, MeasureError, parseMeasure } from "./measures";

describe("parseMeasure", () => {
  it.each([
    ["ndcg@10", "nDCG@10"],
    ["nDCG(gain=EXP)@10", "nDCG(gain=exp)@10"],
    ["ap", "AP"],
    ["AP(rel=2)@10", "AP(rel=2)@10"],
    ["map@10", "AP@10"],
    ["rr@10", "RR@10"],
    ["MRR@10", "RR@10"],
    ["hr@5", "Success@5"],
    ["success(g=2)@10", "Success(g=2)@10"],
    ["Success(g=1)@10", "Success@10"],
    ["rank(g=1)", "Rank(g=1)"],
    ["Rank", "Rank(g=1)"],
    ["HLU", "HLU(a=5)"],
    ["hlu(a=3)", "HLU(a=3)"],
    ["judged@10", "Judged@10"],
    ["coverage@20", "Coverage@20"],
    ["P(rel=2)@5", "P(rel=2)@5"],
    ["Success(rel=2,g=3)@10", "Success(g=3,rel=2)@10"],
  ])("%s → %s", (input, canonical) => {
    if (canonical === null) expect(() => parseMeasure(input)).toThrow(MeasureError);
    else expect(parseMeasure(input).name).toBe(canonical);
  });

  it.each([
    ["nDCG@0", /cutoff must be a whole number of at least 1/],
    ["P", /P needs a cutoff, as in P@10/],
    ["Rank(g=1)@10", /Rank takes no cutoff/],
    ["nDCG(rel=2)@10", /nDCG takes only gain, not rel/],
    ["Success(g=0)@10", /g must be a whole number of at least 1/],
    ["nDCG(gain=log)@10", /gain is linear or exp/],
    ["foo@10", /unknown measure foo/],
    ["AP(rel=2,rel=3)", /rel is given twice/],
    ["nDCG@ten", /cutoff must be a whole number/],
  ])("rejects %s with a reason and the valid forms", (input, reason) => {
    expect(() => parseMeasure(input)).toThrow(reason);
    expect(() => parseMeasure(input)).toThrow(/valid forms: nDCG@K/);
  });

  it("formats parameters alphabetically and omits defaults", () => {
    expect(formatMeasure({ kind: "nDCG", k: 5, rel: 1, gain: "exp", g: 1, a: 5 })).toBe("nDCG(gain=exp)@5");
    expect(formatMeasure({ kind: "AP", rel: 1, gain: "linear", g: 1, a: 5 })).toBe("AP");
  });
});
