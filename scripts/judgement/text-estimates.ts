import type { Rng } from "../lib/random";
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

/**
 * One draw's votes as counts per item and grade (1–4), with each item's own majority and spread, so
 * that every method and every item reads them without sorting or copying votes again.
 */
export interface VoteTable {
  counts: Int32Array;
  n: Int32Array;
  /** Sample variance of the item's votes, as (n·Σg² − (Σg)²) / (n(n − 1)): integers until the one
   *  division, so equal variances are equal numbers; fewer than two votes count as the largest. */
  spread: Float64Array;
  majority: (number | null)[];
}

export function voteTable(votes: readonly (readonly number[])[], coin?: Rng): VoteTable {
  const counts = new Int32Array(votes.length * 4);
  const n = new Int32Array(votes.length);
  const spread = new Float64Array(votes.length);
  votes.forEach((own, i) => {
    let sum = 0;
    let squares = 0;
    for (const g of own) {
      counts[i * 4 + g - 1]++;
      sum += g;
      squares += g * g;
    }
    n[i] = own.length;
    spread[i] =
      own.length < 2 ? Infinity : (own.length * squares - sum * sum) / (own.length * (own.length - 1));
  });
  const majority = votes.map((_, i) => majorityOfCounts(counts.subarray(i * 4, i * 4 + 4), coin));
  return { counts, n, spread, majority };
}

/** `majorityGrade` on counts: the most frequent grade; a tie undecided, or one of the tied by the coin. */
function majorityOfCounts(counts: ArrayLike<number>, coin?: Rng): number | null {
  let best = 0;
  let tied = 0;
  for (let g = 0; g < 4; g++)
    if (counts[g] > best) [best, tied] = [counts[g], 1];
    else if (counts[g] === best && best > 0) tied++;
  if (best === 0) return null;
  if (tied > 1 && !coin) return null;
  let pick = tied > 1 ? coin!.int(tied) : 0;
  for (let g = 0; g < 4; g++) if (counts[g] === best && pick-- === 0) return g + 1;
  return null;
}

/** Each item's estimate by one text-aware method from the votes it has now (null: undecided or none). */
export function textEstimates(
  method: TextMethod,
  votes: readonly (readonly number[])[],
  neighbours: readonly Neighbours[],
  target: number,
  coin?: Rng,
): (number | null)[] {
  const table = voteTable(votes, coin);
  return votes.map((_, i) => textEstimate(method, table, neighbours, target, i, coin));
}

/** Item i's estimate by one text-aware method, read from the draw's vote table. */
export function textEstimate(
  method: TextMethod,
  table: VoteTable,
  neighbours: readonly Neighbours[],
  target: number,
  i: number,
  coin?: Rng,
): number | null {
  const s = method.similarity === "adaptive" ? adaptiveSimilarity(table.n[i]) : method.similarity;
  const { index, similarity } = neighbours[i];
  let k = 0;
  while (k < index.length && table.n[index[k]] === 0) k++; // the nearest neighbour with votes
  const near = k < index.length && similarity[k] >= s ? index[k] : -1;
  if (method.estimator === "nn")
    return near >= 0 && table.spread[near] < table.spread[i] ? table.majority[near] : table.majority[i];
  const pool = table.counts.slice(i * 4, i * 4 + 4);
  let size = table.n[i];
  const join = (j: number) => {
    for (let g = 0; g < 4; g++) pool[g] += table.counts[j * 4 + g];
    size += table.n[j];
  };
  if (method.estimator === "majority-nn") {
    if (near < 0) return table.majority[i];
    join(near);
  } else {
    for (let j = 0; j < index.length && size < target && similarity[j] >= s; j++) join(index[j]);
  }
  return majorityOfCounts(pool, coin);
}
