import type { Labels, Measure } from "./types";

/**
 * What every measure reads from a list of labels. `ranked`: the label of the item at each rank (index
 * 0 = rank 1), NaN for an unjudged item, which counts as not relevant with gain 0 (trec_eval's
 * convention); `judged`: every label the query has in the qrels, retrieved or not, sorted descending.
 */

/** Whether a label counts as relevant at threshold `rel` (NaN, an unjudged item, never does). */
export const isRelevant = (label: number, rel: number) => label >= rel;

/** R: relevant labelled items of the query (label ≥ rel), retrieved or not. */
export function relevantCount(judged: Labels, rel: number): number {
  let n = 0;
  for (let i = 0; i < judged.length; i++) if (isRelevant(judged[i], rel)) n++;
  return n;
}

/** How many items of the list a cutoff K leaves (the whole list when K is undefined). */
export function depthOf(ranked: Labels, k: number | undefined) {
  return k === undefined ? ranked.length : Math.min(k, ranked.length);
}

/** Relevant items among the top K. */
export function hitsAt(ranked: Labels, k: number | undefined, rel = 1): number {
  let hits = 0;
  const depth = depthOf(ranked, k);
  for (let i = 0; i < depth; i++) if (isRelevant(ranked[i], rel)) hits++;
  return hits;
}

/** A list as judged_only and depth leave it: the top `depth` items, then only those with a label ≥ 0. */
export function cutLabels(m: Pick<Measure, "judgedOnly" | "depth">, ranked: Labels): Labels {
  const depth = Math.min(ranked.length, m.depth ?? Infinity);
  if (!m.judgedOnly) return depth === ranked.length ? ranked : Array.prototype.slice.call(ranked, 0, depth);
  const out: number[] = [];
  for (let i = 0; i < depth; i++) if (ranked[i] >= 0) out.push(ranked[i]);
  return out;
}

/** The list a measure reads: cut by judged_only and depth when it has them, else the list itself. */
export function listOf(m: Measure, ranked: Labels): Labels {
  return m.judgedOnly || m.depth !== undefined ? cutLabels(m, ranked) : ranked;
}
