import type { Rng } from "../lib/random";
import { variance } from "../stats/quantile";
import { majorityGrade } from "./aggregate";
import type { ItemText } from "./clustering";
import { cosineSimilarities } from "./tfidf";

/**
 * Label estimates that borrow votes from items that read alike (Davtyan, Eickhoff and Hofmann,
 * "Exploiting document content for efficient aggregation of crowdsourcing votes", CIKM 2015). Every
 * estimate is a majority vote (`majorityGrade`: a tie is undecided unless a seeded coin is given);
 * what differs is whose votes it counts. An item's neighbours are the other graded items of its
 * proposal, most similar first (TF-IDF cosine, `tfidf.ts`); "at least s similar" gates every borrowing:
 * - `nn`, nearest neighbour: the item takes its nearest neighbour's estimate when that one is at least
 *   s similar and its grades vary less (sample variance; an item with one grade or none counts as
 *   varying the most, so two one-grade items never borrow from each other);
 * - `majority-nn`: the majority of the item's votes joined with its nearest neighbour's, when that one
 *   is at least s similar;
 * - `join-until-n`: neighbours' votes joined, most similar first and each at least s similar, until the
 *   item has at least `target` votes.
 * s is fixed, or adaptive: s(n) = 1 − 1/(n − 1) for an item with n > 1 votes, else 0 (the more votes
 * an item has of its own, the more alike a neighbour must read to count).
 */
export type TextEstimator = "nn" | "majority-nn" | "join-until-n";
export const textEstimators: TextEstimator[] = ["nn", "majority-nn", "join-until-n"];

export interface TextMethod {
  estimator: TextEstimator;
  similarity: number | "adaptive";
}

export function textMethodName(m: TextMethod): string {
  return `${m.estimator} ${m.similarity === "adaptive" ? "adaptive" : `s=${m.similarity}`}`;
}

export function adaptiveSimilarity(votes: number): number {
  return votes > 1 ? 1 - 1 / (votes - 1) : 0;
}

/** Per item (by index), its neighbours most similar first: their indices and similarities. */
export interface Neighbours {
  index: Int32Array;
  similarity: Float64Array;
}

/**
 * The neighbours of each of `items` among the others of the same proposal that have a text; an item
 * without a text has none. Ties in similarity keep the items' order.
 */
export function neighboursOf(items: readonly string[], texts: readonly ItemText[]): Neighbours[] {
  const position = new Map(items.map((item, i) => [item, i]));
  const byProposal = new Map<string, ItemText[]>();
  for (const t of texts)
    if (position.has(t.item)) byProposal.set(t.proposal, [...(byProposal.get(t.proposal) ?? []), t]);
  const out: Neighbours[] = items.map(() => ({ index: new Int32Array(0), similarity: new Float64Array(0) }));
  for (const group of byProposal.values()) {
    const sim = cosineSimilarities(group.map((t) => t.text));
    const m = group.length;
    group.forEach((t, a) => {
      const others = Array.from({ length: m }, (_, b) => b)
        .filter((b) => b !== a)
        .sort((x, y) => sim[a * m + y] - sim[a * m + x] || x - y);
      out[position.get(t.item)!] = {
        index: Int32Array.from(others, (b) => position.get(group[b].item)!),
        similarity: Float64Array.from(others, (b) => sim[a * m + b]),
      };
    });
  }
  return out;
}

/** Sample variance of an item's votes; fewer than two votes count as the largest. */
function spread(votes: readonly number[]): number {
  return votes.length < 2 ? Infinity : variance(votes);
}

/** Each item's estimate by one text-aware method from the votes it has now (null: undecided or none). */
export function textEstimates(
  method: TextMethod,
  votes: readonly number[][],
  neighbours: readonly Neighbours[],
  target: number,
  coin?: Rng,
): (number | null)[] {
  return votes.map((own, i) => {
    const s = method.similarity === "adaptive" ? adaptiveSimilarity(own.length) : method.similarity;
    const { index, similarity } = neighbours[i];
    let k = 0;
    while (k < index.length && votes[index[k]].length === 0) k++; // the nearest neighbour with votes
    const near = k < index.length && similarity[k] >= s ? index[k] : -1;
    if (method.estimator === "nn")
      return majorityGrade(near >= 0 && spread(votes[near]) < spread(own) ? votes[near] : own, coin);
    if (method.estimator === "majority-nn")
      return majorityGrade(near >= 0 ? [...own, ...votes[near]] : own, coin);
    const pool = [...own];
    for (let j = 0; j < index.length && pool.length < target && similarity[j] >= s; j++)
      pool.push(...votes[index[j]]);
    return majorityGrade(pool, coin);
  });
}
