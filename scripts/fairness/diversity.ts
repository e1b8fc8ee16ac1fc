/**
 * Diversity of one ranked list over a proposal's aspects (its subjects or keywords), as ndeval 4.5
 * (trec_eval's sibling for the TREC Web track's diversity task) computes it from subtopic qrels.
 *
 * α-nDCG@K (Clarke et al., SIGIR 2008): the item at rank r gains Σ over the aspects it covers of
 * (1 − α)^(items above r covering that aspect); α-DCG@K = Σ_{r ≤ K} gain(r) / log2(r + 1); the ideal list
 * is built greedily from every judged item (the largest gain at each rank, ties to the greatest id in
 * byte order, as ndeval's strcmp sort leaves them), and α-nDCG@K = α-DCG@K / ideal α-DCG@K (0 when the
 * list gains nothing). Subtopic recall strec@K: the aspects the top K cover over the aspects any judged
 * item covers.
 */
export type Aspects = ReadonlyMap<string, ReadonlySet<string>>;

export const DEFAULT_ALPHA = 0.5;

/** Byte order of UTF-8 strings is code point order (JS `<` compares UTF-16 units). */
function byteOrder(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function gain(aspects: ReadonlySet<string> | undefined, seen: ReadonlyMap<string, number>, alpha: number) {
  let g = 0;
  for (const a of aspects ?? []) g += (1 - alpha) ** (seen.get(a) ?? 0);
  return g;
}

function cover(aspects: ReadonlySet<string> | undefined, seen: Map<string, number>) {
  for (const a of aspects ?? []) seen.set(a, (seen.get(a) ?? 0) + 1);
}

function discountedGain(order: readonly string[], judged: Aspects, k: number, alpha: number): number {
  const seen = new Map<string, number>();
  let dcg = 0;
  order.slice(0, k).forEach((item, i) => {
    dcg += gain(judged.get(item), seen, alpha) / Math.log2(i + 2);
    cover(judged.get(item), seen);
  });
  return dcg;
}

/** The greedy ideal ordering of the judged items, k deep. */
export function idealOrder(judged: Aspects, k: number, alpha = DEFAULT_ALPHA): string[] {
  const left = [...judged.keys()].sort(byteOrder).reverse();
  const seen = new Map<string, number>();
  const order: string[] = [];
  while (order.length < k && left.length > 0) {
    let best = 0;
    let bestGain = -1;
    left.forEach((item, i) => {
      const g = gain(judged.get(item), seen, alpha);
      if (g > bestGain) [best, bestGain] = [i, g];
    });
    const [item] = left.splice(best, 1);
    cover(judged.get(item), seen);
    order.push(item);
  }
  return order;
}

export function alphaNdcg(
  order: readonly string[],
  judged: Aspects,
  k: number,
  alpha = DEFAULT_ALPHA,
): number {
  const dcg = discountedGain(order, judged, k, alpha);
  if (dcg === 0) return 0;
  return dcg / discountedGain(idealOrder(judged, k, alpha), judged, k, alpha);
}

export function subtopicRecall(order: readonly string[], judged: Aspects, k: number): number {
  const all = new Set([...judged.values()].flatMap((s) => [...s]));
  const covered = new Set(order.slice(0, k).flatMap((item) => [...(judged.get(item) ?? [])]));
  return all.size > 0 ? covered.size / all.size : 0;
}
