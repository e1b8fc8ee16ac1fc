import { trecFamilyValue } from "../trec-backed";
import type { MeasureEntry } from "./types";

/**
 * Measures that trec_eval defines and ir_measures names (IPrec, Rprec, Bpref, infAP), and trec_eval's
 * own (`Trec`: gm_map, Rprec_mult, G, utility, …): the trec_eval port (scripts/trec-eval) computes them,
 * so their numbers are trec_eval 10.0's.
 */
const allTrec = {
  test: "scripts/eval/trec-measures.test.ts",
  fixture: "test/fixtures/trec-small-trec_eval10/all_trec.qc.txt",
  source: "trec_eval 10.0 on trec-small (all_trec, -c, -l 2, -J -M 20), per query and overall",
};

export const IPrec: MeasureEntry = {
  kind: "IPrec",
  definition: "interpolated precision at recall level x: the highest precision at any rank whose recall ≥ x",
  syntax: { params: ["rel"], cutoff: "fraction", describe: "IPrec@0.1" },
  aggregation: "mean",
  trecNames: { iprec_at_recall: (x) => ({ cutoff: x! }) },
  perQuery: (m, ranked, judged) => trecFamilyValue(m, "iprec_at_recall", String(m.k), ranked, judged),
  reference: allTrec,
};

export const Rprec: MeasureEntry = {
  kind: "Rprec",
  definition: "precision at rank R",
  syntax: { params: ["rel"], cutoff: "none", describe: "Rprec" },
  aggregation: "mean",
  trecNames: { Rprec: () => ({}) },
  perQuery: (m, ranked, judged) => trecFamilyValue(m, "Rprec", null, ranked, judged),
  reference: allTrec,
};

export const Bpref: MeasureEntry = {
  kind: "Bpref",
  definition:
    "(1/R) Σ over relevant retrieved r of 1 − |non-relevant judged above r| / min(R, N), unjudged items skipped",
  syntax: { params: ["rel"], cutoff: "none", describe: "Bpref" },
  aggregation: "mean",
  trecNames: { bpref: () => ({}) },
  perQuery: (m, ranked, judged) => trecFamilyValue(m, "bpref", null, ranked, judged),
  reference: allTrec,
};

export const infAP: MeasureEntry = {
  kind: "infAP",
  definition: "inferred AP (Yilmaz and Aslam 2006), pooled-but-unjudged items counted in proportion",
  syntax: { params: ["rel"], cutoff: "none", describe: "infAP" },
  aggregation: "mean",
  trecNames: { infAP: () => ({}) },
  perQuery: (m, ranked, judged) => trecFamilyValue(m, "infAP", null, ranked, judged),
  reference: allTrec,
};

export const Trec: MeasureEntry = {
  kind: "Trec",
  definition: "a trec_eval measure of its own, as trec_eval 10.0 computes it (its name and parameters)",
  syntax: {
    params: ["rel"],
    cutoff: "none",
    describe: "trec_eval names (map, P.5, ndcg_cut.10, bpref, all_trec, …)",
  },
  aggregation: (m) => {
    const family = m.trec!.family;
    if (family === "gm_map" || family === "gm_bpref") return "geometric";
    if (family === "num_nonrel_judged_ret") return "sum";
    return "mean";
  },
  perQuery: (m, ranked, judged) => trecFamilyValue(m, m.trec!.family, m.trec!.text, ranked, judged),
  // unj (unjudged share) and rbp_resid (rbp's uncertainty).
  lowerIsBetter: (m) => m.trec!.family === "unj" || m.trec!.family === "rbp_resid",
  reference: { ...allTrec, source: `${allTrec.source}; trec_eval's own test outputs (trec_eval-suite)` },
};
