import { listOf } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/** A gain per label: the label itself, 2^label − 1, or a table of gains (labels not in it keep their own). */
export type Gain = "linear" | "exp" | ReadonlyMap<number, number>;

// Unjudged (NaN), zero and negative labels carry no gain.
const linearGain = (label: number) => (label > 0 ? label : 0);
const expGain = (label: number) => (label > 0 ? 2 ** label - 1 : 0);
const tableGain = (gains: ReadonlyMap<number, number>) => (label: number) =>
  Number.isNaN(label) ? 0 : (gains.get(label) ?? (label > 0 ? label : 0));

/**
 * nDCG@K (trec_eval `ndcg_cut`; ir_measures `nDCG`): DCG@K = Σ_{i≤K} gain_i / log2(i+1); IDCG@K is the
 * same over the query's judged labels in the order of their gains; 0 when IDCG = 0. The gain is the
 * label (linear), 2^label − 1 (exp), or a table of gains (trec_eval's `ndcg.1=3,2=9`, ir_measures'
 * `nDCG(gains={…})`: labels not in it keep their own value, negative and unjudged ones gain 0, and a
 * table may reorder the labels, so the ideal is sorted by gain). The relevance threshold plays no part.
 *
 * Assay's one nDCG of a list of labels. Two others must stay, each for a reference this one cannot
 * match bit for bit: trec-eval/measures-gain.ts is trec_eval's own loop over res_rels (`assay
 * trec_eval` prints what trec_eval prints, ndcg_rel and Rndcg included), and clicks/measures.ts's
 * rankingNdcg5 is PyClick's (an unlabelled document gains 0.5, discount Math.log(i + 2) / ln 2).
 */
export function ndcg(ranked: Labels, judged: Labels, k?: number, gain: Gain = "linear"): number {
  const gainOf = gain === "linear" ? linearGain : gain === "exp" ? expGain : tableGain(gain);
  // The judged labels are sorted descending, so a linear or exp gain keeps their order; a table may not.
  const ideal =
    typeof gain === "string"
      ? judged
      : Array.from(judged, gainOf)
          .filter((g) => g > 0)
          .sort((a, b) => b - a);
  const idealGainOf = typeof gain === "string" ? gainOf : linearGain;
  let idcg = 0;
  const idealDepth = Math.min(ideal.length, k ?? Infinity);
  for (let i = 0; i < idealDepth; i++) {
    const g = idealGainOf(ideal[i]);
    if (g > 0) idcg += g / Math.log2(i + 2);
  }
  if (idcg <= 0) return 0;
  let dcg = 0;
  const depth = Math.min(ranked.length, k ?? Infinity);
  for (let i = 0; i < depth; i++) {
    const g = gainOf(ranked[i]);
    if (g !== 0) dcg += g / Math.log2(i + 2);
  }
  return dcg / idcg;
}

export const nDCG: MeasureEntry = {
  kind: "nDCG",
  definition:
    "DCG@K / IDCG@K, DCG@K = Σ_{i≤K} gain_i / log2(i+1), IDCG@K over all labelled gains sorted descending; 0 when IDCG = 0",
  syntax: {
    params: ["gain", "gains"],
    cutoff: "optional",
    describe: "nDCG@K, nDCG(gain=exp)@K, nDCG(gains={0:0,1:1,2:3})@K",
  },
  aggregation: "mean",
  trecNames: { ndcg_cut: (k) => ({ cutoff: k! }) },
  perQuery: (m, ranked, judged) => ndcg(listOf(m, ranked), judged, m.k, m.gains ? new Map(m.gains) : m.gain),
  display: [
    {
      pattern: /^nDCG@(\d+)$/i,
      show: (m) => ({ label: `nDCG@${m[1]}`, kind: "score", direction: "higher" }),
    },
    {
      pattern: /^nDCG\(gain=exp\)@(\d+)$/i,
      show: (m) => ({ label: `nDCG@${m[1]} (exp. gain)`, kind: "score", direction: "higher" }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/expected.json",
    source:
      "trec_eval 9.0.8 ndcg_cut on trec-small; trec_eval 10.0's ndcg and ndcg_cut (all_trec, trec-measures.test.ts); gains and exp worked by hand",
  },
};
