import { isRelevant, listOf, relevantCount } from "./labels";
import type { Labels, MeasureEntry, RatioParts } from "./types";

/**
 * Breese half-life utility parts of one query: numerator Σ_k δ_k 2^(−k/a) over 0-based positions k
 * of relevant items, denominator Σ_{k<M} 2^(−k/a) with M the query's relevant items. The measure is
 * 100 · Σ_q num_q / Σ_q den_q (a ratio of sums over queries, not a mean of ratios).
 */
export function halfLifeParts(ranked: Labels, judged: Labels, a = 5, rel = 1): RatioParts {
  let num = 0;
  for (let k = 0; k < ranked.length; k++) if (isRelevant(ranked[k], rel)) num += 2 ** (-k / a);
  const m = relevantCount(judged, rel);
  let den = 0;
  for (let k = 0; k < m; k++) den += 2 ** (-k / a);
  return { num, den };
}

export const HLU: MeasureEntry = {
  kind: "HLU",
  definition:
    "100 · Σ_q Σ_k δ_qk 2^(−k/a) / Σ_q Σ_{k<M_q} 2^(−k/a), δ_qk = 1 when the item at 0-based position k is relevant",
  syntax: { params: ["rel", "a"], cutoff: "none", alwaysShown: ["a"], describe: "HLU(a=5)" },
  aggregation: "ratio",
  parts: (m, ranked, judged) => {
    const parts = halfLifeParts(listOf(m, ranked), judged, m.a, m.rel);
    return { num: 100 * parts.num, den: parts.den };
  },
  perQuery: (m, ranked, judged) => {
    const { num, den } = halfLifeParts(listOf(m, ranked), judged, m.a, m.rel);
    return den === 0 ? null : (100 * num) / den;
  },
  display: [
    {
      pattern: /^HLU\(a=(\d+)\)$/i,
      show: (m) => ({ label: `HLU (half-life ${m[1]})`, kind: "score", direction: "higher" }),
    },
  ],
  reference: {
    test: "scripts/eval/registry/hand-worked.test.ts",
    source: "Breese, Heckerman and Kadie (1998) as DESIGN.md gives it, worked by hand",
  },
};
