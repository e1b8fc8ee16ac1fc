import { hitsAt, listOf, relevantCount } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/** P@K (trec_eval `P_K`): relevant in top K / K, even when the list is shorter than K. */
export function precision(ranked: Labels, k: number, rel = 1): number {
  return hitsAt(ranked, k, rel) / k;
}

/** R@K (trec_eval `recall_K`): relevant in top K / R; 0 when R = 0. */
export function recall(ranked: Labels, judged: Labels, k: number, rel = 1): number {
  const r = relevantCount(judged, rel);
  return r === 0 ? 0 : hitsAt(ranked, k, rel) / r;
}

const reference = {
  test: "scripts/eval/trec.test.ts",
  fixture: "test/fixtures/trec-small/expected.json",
  source: "trec_eval 9.0.8 P and recall on trec-small (default, complete and -l 2)",
};

export const P: MeasureEntry = {
  kind: "P",
  definition: "relevant in top K / K",
  syntax: { params: ["rel"], cutoff: "required", describe: "P@K" },
  aggregation: "mean",
  trecNames: { P: (k) => ({ cutoff: k! }) },
  perQuery: (m, ranked) => precision(listOf(m, ranked), m.k!, m.rel),
  display: [
    { pattern: /^P@(\d+)$/i, show: (m) => ({ label: `P@${m[1]}`, kind: "rate", direction: "higher" }) },
  ],
  reference,
};

export const R: MeasureEntry = {
  kind: "R",
  definition: "relevant in top K / R; 0 when R = 0",
  syntax: { params: ["rel"], cutoff: "required", describe: "R@K" },
  aggregation: "mean",
  trecNames: { recall: (k) => ({ cutoff: k! }) },
  perQuery: (m, ranked, judged) => recall(listOf(m, ranked), judged, m.k!, m.rel),
  display: [
    { pattern: /^R@(\d+)$/i, show: (m) => ({ label: `R@${m[1]}`, kind: "rate", direction: "higher" }) },
  ],
  reference,
};
