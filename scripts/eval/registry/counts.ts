import { levelOf, resRelsOf } from "../trec-backed";
import type { MeasureEntry } from "./types";

/** Counts summed over queries (trec_eval's num_q, num_rel, num_ret, num_rel_ret). */
const reference = {
  test: "scripts/eval/trec-measures.test.ts",
  fixture: "test/fixtures/trec-small-trec_eval10/all_trec.qc.txt",
  source: "trec_eval 10.0's num_* on trec-small (all_trec), and worked by hand",
};

export const NumQ: MeasureEntry = {
  kind: "NumQ",
  definition: "number of queries evaluated",
  syntax: { params: [], cutoff: "none", describe: "NumQ" },
  aggregation: "sum",
  trecNames: { num_q: () => ({}) },
  perQuery: () => 1,
  reference,
};

export const NumRel: MeasureEntry = {
  kind: "NumRel",
  definition: "R summed over queries",
  syntax: { params: ["rel"], cutoff: "none", describe: "NumRel" },
  aggregation: "sum",
  trecNames: { num_rel: () => ({}) },
  perQuery: (m, ranked, judged) => resRelsOf(m, ranked, judged, levelOf(m)).numRel,
  reference,
};

export const NumRet: MeasureEntry = {
  kind: "NumRet",
  definition: "retrieved items summed over queries (with rel: relevant retrieved ones)",
  syntax: { params: ["rel"], cutoff: "none", describe: "NumRet, NumRet(rel=1)" },
  aggregation: "sum",
  trecNames: { num_ret: () => ({}) },
  perQuery: (m, ranked, judged) => {
    const rr = resRelsOf(m, ranked, judged, levelOf(m));
    return Number.isNaN(m.rel) ? rr.numRet : rr.numRelRet;
  },
  reference,
};

export const NumRelRet: MeasureEntry = {
  kind: "NumRelRet",
  definition: "relevant retrieved items summed over queries",
  syntax: { params: ["rel"], cutoff: "none", describe: "NumRelRet" },
  aggregation: "sum",
  trecNames: { num_rel_ret: () => ({}) },
  perQuery: (m, ranked, judged) => resRelsOf(m, ranked, judged, levelOf(m)).numRelRet,
  reference,
};
