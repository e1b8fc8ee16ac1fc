import { isRelevant, listOf, relevantCount } from "./labels";
import type { Labels, MeasureEntry, RatioParts } from "./types";

/**
 * Half-life utility parts of one query: numerator Σ_k δ_k 2^(−k/a) over 0-based positions k of
 * relevant items, denominator Σ_{k<M} 2^(−k/a) with M the query's relevant items (the most a list
 * can earn). The two measures below differ only in how they combine these over queries.
 */
export function halfLifeParts(ranked: Labels, judged: Labels, a = 5, rel = 1): RatioParts {
  let num = 0;
  for (let k = 0; k < ranked.length; k++) if (isRelevant(ranked[k], rel)) num += 2 ** (-k / a);
  const m = relevantCount(judged, rel);
  let den = 0;
  for (let k = 0; k < m; k++) den += 2 ** (-k / a);
  return { num, den };
}

/**
 * Half-life utility as published (the default `HLU`):
 *
 *   HLU = 100/N · Σ_i (Σ_k δ_ik 2^(−k/a)) / (Σ_{k<M_i} 2^(−k/a)),   a = 5, ranks k from 0,
 *
 * the mean over queries of each query's utility normalised by the best it could have had. Source:
 * the evaluation protocol Assay follows, whose formula issue 24 quotes (per-query normalised, mean
 * × 100); the half-life idea and a = 5 are Breese, Heckerman and Kadie, "Empirical Analysis of
 * Predictive Algorithms for Collaborative Filtering" (UAI 1998), whose own pooled form is HLU-ratio.
 * A query with no relevant item has no value (N counts the queries that have one): in the protocol
 * every test case has held-out items. Checked on trec-small against an independent Python
 * computation (test/fixtures/trec-small/hlu.py: 15.75, where HLU-ratio gives 20.41).
 */
export const HLU: MeasureEntry = {
  kind: "HLU",
  definition:
    "100/N · Σ_q (Σ_k δ_qk 2^(−k/a)) / (Σ_{k<M_q} 2^(−k/a)) over the N queries with a relevant item, δ_qk = 1 when the item at 0-based position k is relevant",
  syntax: { params: ["rel", "a"], cutoff: "none", alwaysShown: ["a"], describe: "HLU(a=5)" },
  aggregation: "present-mean",
  perQuery: (m, ranked, judged) => {
    const { num, den } = halfLifeParts(listOf(m, ranked), judged, m.a, m.rel);
    return den === 0 ? null : (100 * num) / den;
  },
  display: [
    {
      pattern: /^HLU\(a=(\d+)\)$/i,
      show: (m) => ({
        label: `HLU (half-life ${m[1]})`,
        kind: "score",
        direction: "higher",
        description: "Half-life utility as published: each query's utility over its best, averaged, × 100",
      }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/hlu-expected.json",
    source:
      "the protocol's formula as issue 24 quotes it, computed independently in Python (test/fixtures/trec-small/hlu.py)",
  },
};

/**
 * Half-life utility as a ratio of sums over queries, 100 · Σ_q num_q / Σ_q den_q: Breese, Heckerman
 * and Kadie (1998), eq. 6, one pooled utility. It weighs a query by how much it could earn, so queries
 * with many relevant items count more; it equals `HLU` only when every query has the same number of
 * relevant items. Kept under its own name so figures printed before the change can still be had.
 */
export const HLURatio: MeasureEntry = {
  kind: "HLU-ratio",
  definition:
    "100 · Σ_q Σ_k δ_qk 2^(−k/a) / Σ_q Σ_{k<M_q} 2^(−k/a), δ_qk = 1 when the item at 0-based position k is relevant",
  syntax: { params: ["rel", "a"], cutoff: "none", alwaysShown: ["a"], describe: "HLU-ratio(a=5)" },
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
      pattern: /^HLU-ratio\(a=(\d+)\)$/i,
      show: (m) => ({
        label: `HLU ratio (half-life ${m[1]})`,
        kind: "score",
        direction: "higher",
        description: "Half-life utility pooled over queries (Σ utility / Σ best, × 100; Breese et al. 1998)",
      }),
    },
  ],
  reference: {
    test: "scripts/eval/trec.test.ts",
    fixture: "test/fixtures/trec-small/hlu-expected.json",
    source:
      "Breese, Heckerman and Kadie (1998), ratio of sums, computed independently in Python (test/fixtures/trec-small/hlu.py)",
  },
};
