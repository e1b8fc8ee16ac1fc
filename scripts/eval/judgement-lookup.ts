import type { DocIds, ParsedQrels } from "./trec";

/**
 * The judgements of one query at a time, for looking up the labels of its list: a small
 * open-addressing table of the query's judged docids, reused from query to query, so the ten
 * million look-ups of a large run stay in the CPU cache; a hash hit is confirmed byte by byte.
 */
export class JudgementLookup {
  private table = new Int32Array(64);
  private stamp = new Int32Array(64);
  private generation = 0;
  private mask = 63;
  private cursor = 0;
  private index: Map<string, number> | null = null;
  private readonly sortedLabels: Float64Array;
  private readonly sorted: Uint8Array;

  constructor(readonly qrels: ParsedQrels) {
    this.sortedLabels = new Float64Array(qrels.order.length);
    this.sorted = new Uint8Array(qrels.qids.length);
  }

  /**
   * The qrels query of `qid`, -1 when it has none. Runs and qrels usually list queries in the same
   * order, so the query after the last one found is tried first and the index by qid is built only
   * when that fails.
   */
  queryOf(qid: string): number {
    const { qrels } = this;
    if (qrels.qids[this.cursor] === qid) return this.cursor++;
    this.index ??= new Map(qrels.qids.map((id, index) => [id, index]));
    const q = this.index.get(qid);
    if (q === undefined) return -1;
    this.cursor = q + 1;
    return q;
  }

  /** Every label query `q` has, sorted descending (by insertion: a query judges tens of candidates, not thousands). */
  judged(q: number): Float64Array {
    const { qrels } = this;
    const from = qrels.ranges[q],
      to = qrels.ranges[q + 1];
    const judged = this.sortedLabels.subarray(from, to);
    if (this.sorted[q]) return judged;
    for (let i = from; i < to; i++) {
      const label = qrels.label[qrels.order[i]];
      let k = i - from;
      while (k > 0 && judged[k - 1] < label) {
        judged[k] = judged[k - 1];
        k--;
      }
      judged[k] = label;
    }
    this.sorted[q] = 1;
    return judged;
  }

  /** Makes query `q` the one `labelOf` answers for. */
  load(q: number): void {
    const { qrels } = this;
    const from = qrels.ranges[q],
      to = qrels.ranges[q + 1];
    if (this.table.length < (to - from) * 2) {
      let size = this.table.length;
      while (size < (to - from) * 2) size *= 2;
      this.table = new Int32Array(size);
      this.stamp = new Int32Array(size);
      this.mask = size - 1;
    }
    const { table, stamp, mask } = this;
    const generation = ++this.generation;
    for (let i = from; i < to; i++) {
      const e = qrels.order[i];
      let slot = qrels.docHash[e] & mask;
      while (stamp[slot] === generation) slot = (slot + 1) & mask;
      stamp[slot] = generation;
      table[slot] = e;
    }
  }

  /** The loaded query's label of entry `e` of `entries`; NaN when it is not judged. */
  labelOf(entries: DocIds, e: number): number {
    const { table, stamp, mask, generation, qrels } = this;
    const h = entries.docHash[e];
    let slot = h & mask;
    while (stamp[slot] === generation) {
      const j = table[slot];
      if (qrels.docHash[j] === h && sameDocId(entries, e, qrels, j)) return qrels.label[j];
      slot = (slot + 1) & mask;
    }
    return NaN;
  }
}

function sameDocId(a: DocIds, i: number, b: DocIds, j: number) {
  const length = a.docLength[i];
  if (length !== b.docLength[j]) return false;
  const sa = a.docStart[i],
    sb = b.docStart[j];
  for (let k = 0; k < length; k++) if (a.bytes[sa + k] !== b.bytes[sb + k]) return false;
  return true;
}
