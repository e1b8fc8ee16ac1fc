/**
 * Per-query ranking measures. Every function takes
 *  - `ranked`: the label of the item at each rank (index 0 = rank 1); NaN for an unjudged item, which
 *    counts as not relevant with gain 0 (trec_eval's convention);
 *  - `judged`: every label the query has in the qrels, retrieved or not, sorted descending.
 * Definitions follow shared DESIGN.md and trec_eval 9.0.8 where it has the measure.
 */
export type Labels = ArrayLike<number>;

const isRelevant = (label: number, rel: number) => label >= rel; // NaN >= x is false

/** R: relevant labelled items of the query (label ≥ rel), retrieved or not. */
export function relevantCount(judged: Labels, rel: number): number {
  let n = 0;
  for (let i = 0; i < judged.length; i++) if (isRelevant(judged[i], rel)) n++;
  return n;
}

function cut(ranked: Labels, k: number | undefined) {
  return k === undefined ? ranked.length : Math.min(k, ranked.length);
}

function gainOf(label: number, gain: "linear" | "exp") {
  if (!(label > 0)) return 0; // unjudged (NaN), zero and negative labels carry no gain
  return gain === "exp" ? 2 ** label - 1 : label;
}

/**
 * nDCG@K (trec_eval `ndcg_cut`): DCG@K = Σ_{i≤K} gain_i / log2(i+1); IDCG@K is the same over the
 * query's judged labels sorted descending; 0 when IDCG = 0. The gain is the label (linear) or
 * 2^label − 1 (exp); the relevance threshold plays no part, as in trec_eval.
 */
export function ndcg(ranked: Labels, judged: Labels, k?: number, gain: "linear" | "exp" = "linear"): number {
  let ideal = 0;
  const idealDepth = cut(judged, k);
  for (let i = 0; i < idealDepth; i++) ideal += gainOf(judged[i], gain) / Math.log2(i + 2);
  if (ideal === 0) return 0;
  let dcg = 0;
  const depth = cut(ranked, k);
  for (let i = 0; i < depth; i++) {
    const g = gainOf(ranked[i], gain);
    if (g !== 0) dcg += g / Math.log2(i + 2);
  }
  return dcg / ideal;
}

/**
 * AP@K (trec_eval `map`, `map_cut`): Σ over relevant items at rank i ≤ K of (relevant in top i)/i,
 * divided by R, not min(K, R); 0 when R = 0.
 */
export function averagePrecision(ranked: Labels, judged: Labels, k?: number, rel = 1): number {
  const r = relevantCount(judged, rel);
  if (r === 0) return 0;
  let hits = 0;
  let sum = 0;
  const depth = cut(ranked, k);
  for (let i = 0; i < depth; i++) {
    if (isRelevant(ranked[i], rel)) {
      hits++;
      sum += hits / (i + 1);
    }
  }
  return sum / r;
}

/** RR@K (trec_eval `recip_rank`): 1 / rank of the first relevant item within K, else 0. */
export function reciprocalRank(ranked: Labels, k?: number, rel = 1): number {
  const depth = cut(ranked, k);
  for (let i = 0; i < depth; i++) if (isRelevant(ranked[i], rel)) return 1 / (i + 1);
  return 0;
}

/** Relevant items among the top K. */
export function hitsAt(ranked: Labels, k: number | undefined, rel = 1): number {
  let hits = 0;
  const depth = cut(ranked, k);
  for (let i = 0; i < depth; i++) if (isRelevant(ranked[i], rel)) hits++;
  return hits;
}

/** P@K (trec_eval `P_K`): relevant in top K / K, even when the list is shorter than K. */
export function precision(ranked: Labels, k: number, rel = 1): number {
  return hitsAt(ranked, k, rel) / k;
}

/** R@K (trec_eval `recall_K`): relevant in top K / R; 0 when R = 0. */
export function recall(ranked: Labels, judged: Labels, k: number, rel = 1): number {
  const r = relevantCount(judged, rel);
  return r === 0 ? 0 : hitsAt(ranked, k, rel) / r;
}

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

/**
 * Judged@K as ir_measures computes it (providers/judged_provider.py): labelled items in the top K over
 * min(K, list length), so a 5-item list with every item judged scores 1 at K = 10. An empty list scores 0
 * (ir_measures never sees one: it only scores queries that are in the run).
 */
export function judgedAt(ranked: Labels, k: number): number {
  let n = 0;
  const depth = cut(ranked, k);
  for (let i = 0; i < depth; i++) if (!Number.isNaN(ranked[i])) n++;
  return depth === 0 ? 0 : n / depth;
}

/**
 * Breese half-life utility parts of one query: numerator Σ_k δ_k 2^(−k/a) over 0-based positions k
 * of relevant items, denominator Σ_{k<M} 2^(−k/a) with M the query's relevant items. The measure is
 * 100 · Σ_q num_q / Σ_q den_q (a ratio of sums over queries, not a mean of ratios).
 */
export function halfLifeParts(ranked: Labels, judged: Labels, a = 5, rel = 1): { num: number; den: number } {
  let num = 0;
  for (let k = 0; k < ranked.length; k++) if (isRelevant(ranked[k], rel)) num += 2 ** (-k / a);
  const m = relevantCount(judged, rel);
  let den = 0;
  for (let k = 0; k < m; k++) den += 2 ** (-k / a);
  return { num, den };
}

/** Pool recall: share of the relevant items found anywhere in the full list; null when R = 0. */
export function poolRecall(ranked: Labels, judged: Labels, rel = 1): number | null {
  const r = relevantCount(judged, rel);
  return r === 0 ? null : hitsAt(ranked, undefined, rel) / r;
}
