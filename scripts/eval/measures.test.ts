import { formatMeasure, isLowerBetter, MeasureError, parseMeasure, parseMeasures } from "./measures";

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
    ["hlu-ratio", "HLU-ratio(a=5)"],
    ["HLU-Ratio(a=2)", "HLU-ratio(a=2)"],
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
    ["nDCG(rel=2)@10", /nDCG takes only gain, gains, not rel/],
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

describe("trec_eval's names beside ir_measures'", () => {
  const names = (input: string, defaults = {}) => parseMeasures([input], defaults).map((m) => m.name);

  it.each([
    ["map", ["AP"]],
    ["P.5,10", ["P@5", "P@10"]],
    ["P_5", ["P@5"]],
    ["recall.10", ["R@10"]],
    ["ndcg_cut.10", ["nDCG@10"]],
    ["ndcg_cut_20", ["nDCG@20"]],
    ["map_cut.10", ["AP@10"]],
    ["recip_rank", ["RR"]],
    ["success.1,5", ["Success@1", "Success@5"]],
    ["bpref", ["Bpref"]],
    ["infAP", ["infAP"]],
    ["Rprec", ["Rprec"]],
    ["set_P", ["SetP"]],
    ["set_recall", ["SetR"]],
    ["set_relative_P", ["SetRelP"]],
    ["set_map", ["SetAP"]],
    ["set_F", ["SetF"]],
    ["set_F.0.5", ["SetF(beta=0.5)"]],
    ["iprec_at_recall.0.1,0.5", ["IPrec@0.1", "IPrec@0.5"]],
    ["num_q", ["NumQ"]],
    ["num_rel", ["NumRel"]],
    ["num_ret", ["NumRet"]],
    ["num_rel_ret", ["NumRelRet"]],
    ["gm_map", ["gm_map"]],
    ["Rprec_mult.0.2,1", ["Rprec_mult_0.20", "Rprec_mult_1.00"]],
    ["utility.2,-1,0,0", ["utility_2,-1,0,0"]],
    ["11pt_avg", ["11pt_avg"]],
    ["ndcg.1=3,2=9", ["ndcg_1=3,2=9"]],
    ["ndcg_rel", ["ndcg_rel"]],
    ["Rndcg", ["Rndcg"]],
    ["G", ["G"]],
    ["binG", ["binG"]],
    ["relative_P.10", ["relative_P_10"]],
    ["rbp", ["rbp"]],
    ["rbp.p=0.8", ["rbp_p=0.8"]],
    ["unj.10", ["unj_10"]],
    ["bpref(rel=2)", ["Bpref(rel=2)"]],
    ["gm_bpref(rel=2,judged_only=true)", ["gm_bpref(judged_only=true,rel=2)"]],
  ])("%s → %j", (input, expected) => {
    expect(names(input)).toEqual(expected);
  });

  it("every canonical name reads back as itself (the worker threads receive names)", () => {
    for (const m of parseMeasures([
      "all_trec",
      "Rprec_mult.0.125",
      "RBP(p=0.5,rel=2)@10",
      "nDCG(gains={0:0,1:1,2:3})@10",
      "ERR@20",
    ])) {
      expect(parseMeasure(m.name).name).toBe(m.name);
    }
  });

  it("all_trec is every trec_eval measure that is a number per query, with 10.0's rbp, rbp_resid and unj", () => {
    const all = names("all_trec");
    expect(all).toHaveLength(98);
    expect(all).toEqual(
      expect.arrayContaining([
        "NumQ",
        "gm_map",
        "IPrec@0",
        "IPrec@1",
        "P@1000",
        "utility",
        "ndcg_rel",
        "rbp",
        "rbp_resid",
        "unj_20",
        "num_nonrel_judged_ret",
      ]),
    );
  });

  it("-l, -J and -M set rel, judged_only and depth for the measures that take them", () => {
    expect(names("map", { rel: 2, judgedOnly: true, depth: 100 })).toEqual([
      "AP(depth=100,judged_only=true,rel=2)",
    ]);
    expect(names("ERR@10", { rel: 2 })).toEqual(["ERR@10"]);
    expect(names("utility", { rel: 2 })).toEqual(["utility(rel=2)"]);
  });

  it.each([
    ["P.0", /cut-offs must be positive/],
    ["P.5,5", /cut-off is given twice/],
    ["bpref.5", /bpref takes no parameters/],
    ["ndcg.1=3,2", /malformed pair parameters/],
    ["RBP(p=1)", /p must be a number between 0 and 1/],
    ["IPrec@2", /recall level must be a number from 0 to 1/],
    ["nDCG(gains={1:x})@10", /gains are written/],
    ["utility(a=1)", /takes only rel, judged_only and depth/],
  ])("rejects %s", (input, reason) => {
    expect(() => parseMeasures([input])).toThrow(reason);
  });
});

it("a lower value is better for Rank, unj and rbp_resid only (the runs table marks by it)", () => {
  expect(parseMeasures(["Rank", "unj.10", "rbp_resid", "AP", "rbp", "NumRet"]).map(isLowerBetter)).toEqual([
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
