import { depthOf, listOf } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/**
 * Judged@K as ir_measures computes it (providers/judged_provider.py): labelled items in the top K over
 * min(K, list length), so a 5-item list with every item judged scores 1 at K = 10. An empty list scores 0
 * (ir_measures never sees one: it only scores queries that are in the run).
 */
export function judgedAt(ranked: Labels, k: number): number {
  let n = 0;
  const depth = depthOf(ranked, k);
  for (let i = 0; i < depth; i++) if (!Number.isNaN(ranked[i])) n++;
  return depth === 0 ? 0 : n / depth;
}

export const Judged: MeasureEntry = {
  kind: "Judged",
  definition: "share of the top K that carries a label (over min(K, list length))",
  syntax: { params: [], cutoff: "required", describe: "Judged@K" },
  aggregation: "mean",
  perQuery: (m, ranked) => judgedAt(listOf(m, ranked), m.k!),
  display: [
    {
      pattern: /^Judged@(\d+)$/i,
      show: (m) => ({
        label: `Judged@${m[1]}`,
        kind: "rate",
        direction: "higher",
        description: "share of the top K that has a grade",
      }),
    },
  ],
  reference: {
    test: "scripts/eval/registry/hand-worked.test.ts",
    source: "ir_measures' judged_provider.py conventions, worked by hand",
  },
};
