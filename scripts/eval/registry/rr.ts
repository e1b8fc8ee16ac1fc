import { depthOf, isRelevant, listOf } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/** RR@K (trec_eval `recip_rank`): 1 / rank of the first relevant item within K, else 0. */
export function reciprocalRank(ranked: Labels, k?: number, rel = 1): number {
  const depth = depthOf(ranked, k);
  for (let i = 0; i < depth; i++) if (isRelevant(ranked[i], rel)) return 1 / (i + 1);
  return 0;
}

export const RR: MeasureEntry = {
  kind: "RR",
  definition: "1/rank of the first relevant item (within K), else 0; MRR when averaged",
  syntax: { params: ["rel"], cutoff: "optional", describe: "RR, RR@K", aliases: ["mrr"] },
  aggregation: "mean",
  trecNames: { recip_rank: () => ({}) },
  perQuery: (m, ranked) => reciprocalRank(listOf(m, ranked), m.k, m.rel),
  display: [
    {
      pattern: /^RR(?:@(\d+))?$/i,
      show: (m) => ({ label: `MRR${m[1] ? `@${m[1]}` : ""}`, kind: "score", direction: "higher" }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/expected.json",
    source: "trec_eval 9.0.8 recip_rank on trec-small; RR@K worked by hand in hand-worked.test.ts",
  },
};
