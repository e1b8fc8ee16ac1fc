import { hitsAt, isRelevant, listOf } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/** Success(g=G)@K (HR@K when G = 1; trec_eval `success_K`): 1 when at least G relevant items are in the top K. */
export function success(ranked: Labels, k: number, rel = 1, g = 1): number {
  return hitsAt(ranked, k, rel) >= g ? 1 : 0;
}

/** Rank(g=G): 1-based rank of the G-th relevant item; null when fewer than G are retrieved (reported apart, never as 0). */
export function rankOfNth(ranked: Labels, g = 1, rel = 1): number | null {
  let hits = 0;
  for (let i = 0; i < ranked.length; i++) if (isRelevant(ranked[i], rel) && ++hits === g) return i + 1;
  return null;
}

export const Success: MeasureEntry = {
  kind: "Success",
  definition: "1 when at least G relevant items are in the top K (G = 1: HR@K, hit rate)",
  syntax: {
    params: ["rel", "g"],
    cutoff: "required",
    describe: "Success@K, Success(g=2)@K",
    aliases: ["hr"],
  },
  aggregation: "mean",
  trecNames: { success: (k) => ({ cutoff: k! }) },
  perQuery: (m, ranked) => success(listOf(m, ranked), m.k!, m.rel, m.g),
  display: [
    {
      pattern: /^Success@(\d+)$/i,
      show: (m) => ({
        label: `HR@${m[1]}`,
        kind: "rate",
        direction: "higher",
        description: "share of proposals with a committee member in the top K",
      }),
    },
    {
      pattern: /^Success\(g=(\d+)\)@(\d+)$/i,
      show: (m) => ({
        label: `HR(≥${m[1]})@${m[2]}`,
        kind: "rate",
        direction: "higher",
        description: `share of proposals with at least ${m[1]} committee members in the top K`,
      }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/expected.json",
    source: "trec_eval 9.0.8 success on trec-small; Success(g) worked by hand in hand-worked.test.ts",
  },
};

export const Rank: MeasureEntry = {
  kind: "Rank",
  definition:
    "rank of the G-th relevant item; queries with fewer than G relevant retrieved are counted apart, not as 0",
  syntax: { params: ["rel", "g"], cutoff: "none", alwaysShown: ["g"], describe: "Rank(g=1)" },
  aggregation: "present-mean",
  perQuery: (m, ranked) => rankOfNth(listOf(m, ranked), m.g, m.rel),
  lowerIsBetter: () => true,
  display: [
    {
      pattern: /^Rank\(g=(\d+)\)$/i,
      show: (m) => ({
        label: m[1] === "1" ? "Rank of first member" : `Rank of member ${m[1]}`,
        kind: "rank",
        direction: "lower",
        description: "rank at which the g-th committee member appears; lower is better",
      }),
    },
  ],
  reference: {
    test: "scripts/eval/registry/hand-worked.test.ts",
    source: "DESIGN.md's definition, worked by hand (no other tool has the measure)",
  },
};
