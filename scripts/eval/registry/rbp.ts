import { gainMeasures } from "../../trec-eval/measures-gain";
import { finiteOrZero, resRelsOf } from "../trec-backed";
import { cutLabels } from "./labels";
import type { Labels, Measure, MeasureEntry } from "./types";

/** RBP with graded gains as trec_eval 10.0's rbp: labels scaled into [0, 1] by the query's highest. */
function gradedRbp(m: Measure, ranked: Labels, judged: Labels): number {
  const depth = Math.min(m.depth ?? Infinity, m.k ?? Infinity);
  const rr = resRelsOf(m, ranked, judged, 1, Number.isFinite(depth) ? depth : undefined);
  return gainMeasures.rbp.calc(
    rr,
    { values: [], pairs: [{ name: "p", level: NaN, gain: m.p ?? 0.8 }], printable: null },
    { relevanceLevel: 1, numDocsInColl: 0, v10: true },
  )[0];
}

/** Binary RBP (Moffat and Zobel 2008): (1 − p) Σ_{i<K} [label_i ≥ rel] p^i. */
export function binaryRbp(m: Measure, ranked: Labels): number {
  const list = cutLabels(m, ranked);
  const p = m.p ?? 0.8;
  const depth = Math.min(list.length, m.k ?? Infinity);
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < depth; i++) {
    if (list[i] >= m.rel) sum += weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

export const RBP: MeasureEntry = {
  kind: "RBP",
  definition:
    "(1 − p) Σ_{i<K} gain_i p^i; gain [label ≥ rel] when rel is given, else the label over the query's highest",
  syntax: { params: ["p", "rel"], cutoff: "optional", describe: "RBP(p=0.8), RBP(p=0.8,rel=1)@K" },
  aggregation: "mean",
  perQuery: (m, ranked, judged) =>
    finiteOrZero(Number.isNaN(m.rel) ? gradedRbp(m, ranked, judged) : binaryRbp(m, ranked)),
  reference: {
    test: "scripts/eval/trec-measures.test.ts",
    fixture: "test/fixtures/trec-small-trec_eval10/all_trec.qc.txt",
    source: "trec_eval 10.0's rbp (graded); binary RBP (Moffat and Zobel 2008) worked by hand",
  },
};
