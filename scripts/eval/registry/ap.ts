import { depthOf, isRelevant, listOf, relevantCount } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/**
 * AP@K (trec_eval `map`, `map_cut`): Σ over relevant items at rank i ≤ K of (relevant in top i)/i,
 * divided by R, not min(K, R); 0 when R = 0.
 */
export function averagePrecision(ranked: Labels, judged: Labels, k?: number, rel = 1): number {
  const r = relevantCount(judged, rel);
  if (r === 0) return 0;
  let hits = 0;
  let sum = 0;
  const depth = depthOf(ranked, k);
  for (let i = 0; i < depth; i++) {
    if (isRelevant(ranked[i], rel)) {
      hits++;
      sum += hits / (i + 1);
    }
  }
  return sum / r;
}

export const AP: MeasureEntry = {
  kind: "AP",
  definition:
    "Σ over relevant d at rank i ≤ K of (relevant in top i)/i, divided by R (not min(K,R)); 0 when R = 0",
  syntax: { params: ["rel"], cutoff: "optional", describe: "AP, AP@K, AP(rel=2)", aliases: ["map"] },
  aggregation: "mean",
  trecNames: { map: () => ({}), map_cut: (k) => ({ cutoff: k! }) },
  perQuery: (m, ranked, judged) => averagePrecision(listOf(m, ranked), judged, m.k, m.rel),
  display: [
    {
      pattern: /^AP(?:@(\d+))?$/i,
      show: (m) => ({ label: `AP${m[1] ? `@${m[1]}` : ""}`, kind: "score", direction: "higher" }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/expected.json",
    source: "trec_eval 9.0.8 map and map_cut on trec-small (default, complete and -l 2)",
  },
};
