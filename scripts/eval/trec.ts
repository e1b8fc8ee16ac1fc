import { grow } from "../lib/grow";
import type { QueryInput } from "./evaluate";
import { JudgementLookup } from "./judgement-lookup";
import { FormatError, TrecReader } from "./trec-reader";

/** Judgements: query id → candidate id → label. */
export type Qrels = Map<string, Map<string, number>>;

export { FormatError };

const decoder = new TextDecoder();

/** Entries held as offsets into the file's bytes: each docid's start, length and FNV-1a hash. */
export interface DocIds {
  docStart: Int32Array;
  docLength: Uint8Array;
  docHash: Int32Array;
  bytes: Uint8Array;
  order: Int32Array;
}

/** Entries grouped by query: query q's are order[ranges[q] .. ranges[q+1]). */
interface ByQuery extends DocIds {
  qids: string[];
  ranges: Int32Array;
}

/**
 * TREC qrels (`qid iter docid rel`, rel an integer label) held like a run: offsets into the bytes,
 * grouped by query. `parseQrels` gives the same as a Map for small inputs.
 */
export interface ParsedQrels extends ByQuery {
  label: Int32Array;
}

/** `cNumbers`: labels only as C's atol reads them whole (TrecReader). */
export function parseQrelsBytes(bytes: Uint8Array, source = "qrels", cNumbers = false): ParsedQrels {
  const lines = scanTrec(bytes, "qrels", source, cNumbers);
  const parsed: ParsedQrels = {
    ...groupByQuery(lines),
    docStart: lines.docStart,
    docLength: lines.docLength,
    docHash: lines.docHash,
    label: Int32Array.from(lines.value.subarray(0, lines.count)),
    bytes,
  };
  const seen = new DuplicateFinder();
  for (let q = 0; q < parsed.qids.length; q++) {
    const dup = seen.find(parsed, parsed.ranges[q], parsed.ranges[q + 1]);
    if (dup >= 0)
      throw new FormatError(`${source}: ${docIdOf(parsed, dup)} is judged twice for query ${parsed.qids[q]}`);
  }
  return parsed;
}

export function parseQrels(text: string, source = "qrels"): Qrels {
  return qrelsToMap(parseQrelsBytes(new TextEncoder().encode(text), source));
}

export function qrelsToMap(parsed: ParsedQrels): Qrels {
  const out: Qrels = new Map();
  parsed.qids.forEach((qid, q) => {
    const judged = new Map<string, number>();
    for (let i = parsed.ranges[q]; i < parsed.ranges[q + 1]; i++)
      judged.set(docIdOf(parsed, parsed.order[i]), parsed.label[parsed.order[i]]);
    out.set(qid, judged);
  });
  return out;
}

/** Judgements given as a Map (from the database, say) in the compact form runQueries reads. */
export function qrelsFromMap(qrels: Qrels): ParsedQrels {
  const lines: string[] = [];
  for (const [qid, judged] of qrels)
    for (const [doc, label] of judged) lines.push(`${qid} 0 ${doc} ${label}`);
  return parseQrelsBytes(new TextEncoder().encode(lines.join("\n")));
}

/**
 * A TREC run (`qid Q0 docid rank score tag`) held as offsets into the file's bytes, so that a run of
 * ten million lines does not become ten million strings. Within a query, entries are in trec_eval's
 * order: score descending, ties broken by docid descending (byte order); the rank column is ignored.
 */
export interface ParsedRun extends ByQuery {
  score: Float64Array;
}

/**
 * Every entry of a run or qrels in arrays of their own, and each query's: where it starts (a file
 * grouped by query, the usual case) or, once a query turns up again after another, every entry's.
 */
function scanTrec(bytes: Uint8Array, kind: "run" | "qrels", source: string, cNumbers = false) {
  let capacity = Math.max(1024, Math.ceil(bytes.length / 30));
  let queryOf: Int32Array | null = null;
  const starts: number[] = [];
  let docStart = new Int32Array(capacity);
  let docLength = new Uint8Array(capacity);
  let docHash = new Int32Array(capacity);
  let values = new Float64Array(capacity);
  const qids: string[] = [];
  const qidIndex = new Map<string, number>();
  let count = 0;
  let grouped = true;
  new TrecReader(
    kind,
    source,
    (segment) => {
      if (count + segment.count > capacity) {
        capacity = Math.ceil((count + segment.count) * 1.6);
        if (queryOf) queryOf = grow(queryOf, capacity);
        docStart = grow(docStart, capacity);
        docLength = grow(docLength, capacity);
        docHash = grow(docHash, capacity);
        values = grow(values, capacity);
      }
      let q = qidIndex.get(segment.qid) ?? -1;
      if (q < 0) {
        q = qids.length;
        qids.push(segment.qid);
        qidIndex.set(segment.qid, q);
        starts.push(count);
      } else if (!queryOf) {
        grouped = false;
        queryOf = new Int32Array(capacity);
        for (let j = 0; j < starts.length; j++)
          queryOf.fill(j, starts[j], j + 1 < starts.length ? starts[j + 1] : count);
      }
      // Element by element: a segment holds tens of entries, too few to pay for four subarray views.
      for (let i = 0; i < segment.count; i++, count++) {
        if (queryOf) queryOf[count] = q;
        docStart[count] = segment.docStart[i];
        docLength[count] = segment.docLength[i];
        docHash[count] = segment.docHash[i];
        values[count] = segment.value[i];
      }
    },
    cNumbers,
  ).read(bytes);
  return { qids, queryOf, starts, docStart, docLength, docHash, value: values, count, grouped };
}

/** Entries grouped by query with a stable counting sort: query q's are order[ranges[q] .. ranges[q+1]). */
function groupByQuery(lines: {
  qids: string[];
  queryOf: Int32Array | null;
  starts: number[];
  count: number;
  grouped: boolean;
}) {
  const { qids, queryOf, count } = lines;
  const ranges = new Int32Array(qids.length + 1);
  const order = new Int32Array(count);
  // Files grouped by query (the usual case) are already in order.
  if (lines.grouped || !queryOf) {
    for (let q = 0; q < qids.length; q++) ranges[q] = lines.starts[q];
    ranges[qids.length] = count;
    for (let e = 0; e < count; e++) order[e] = e;
    return { qids, ranges, order };
  }
  for (let e = 0; e < count; e++) ranges[queryOf[e] + 1]++;
  for (let q = 0; q < qids.length; q++) ranges[q + 1] += ranges[q];
  const fill = ranges.slice(0, qids.length);
  for (let e = 0; e < count; e++) order[fill[queryOf[e]]++] = e;
  return { qids, ranges, order };
}

/**
 * `cNumbers`: scores only as C's atof reads them whole (TrecReader); `floatScores`: each score rounded
 * to a 32-bit float before the lists are ordered, as trec_eval 9.0.8 keeps them.
 */
export function parseRun(
  bytes: Uint8Array,
  source = "run",
  options: { cNumbers?: boolean; floatScores?: boolean } = {},
): ParsedRun {
  const lines = scanTrec(bytes, "run", source, options.cNumbers);
  if (options.floatScores) for (let i = 0; i < lines.count; i++) lines.value[i] = Math.fround(lines.value[i]);
  const run: ParsedRun = {
    ...groupByQuery(lines),
    docStart: lines.docStart,
    docLength: lines.docLength,
    docHash: lines.docHash,
    score: lines.value,
    bytes,
  };
  const duplicates = new DuplicateFinder();
  for (let q = 0; q < run.qids.length; q++)
    orderList(run, run.score, run.ranges[q], run.ranges[q + 1], duplicates, run.qids[q], source);
  return run;
}

/** Puts one query's list in trec_eval's order and rejects a candidate listed twice. */
export function orderList(
  entries: DocIds,
  score: Float64Array,
  from: number,
  to: number,
  duplicates: DuplicateFinder,
  qid: string,
  source: string,
) {
  sortQuery(entries, score, from, to);
  const dup = duplicates.find(entries, from, to);
  if (dup >= 0)
    throw new FormatError(`${source}: ${docIdOf(entries, dup)} appears twice in the list of query ${qid}`);
}

/** Byte-order comparison of two entries' docids, as strcmp does. */
function compareDocIds(run: DocIds, a: number, b: number) {
  const { bytes, docStart, docLength } = run;
  const la = docLength[a],
    lb = docLength[b];
  const n = Math.min(la, lb);
  for (let i = 0; i < n; i++) {
    const d = bytes[docStart[a] + i] - bytes[docStart[b] + i];
    if (d !== 0) return d;
  }
  return la - lb;
}

/** trec_eval's order: score descending, ties by docid descending. Already-ordered queries are not sorted. */
function sortQuery(entries: DocIds, score: Float64Array, from: number, to: number) {
  const { order } = entries;
  const before = (a: number, b: number) => score[b] - score[a] || compareDocIds(entries, b, a);
  let sorted = true;
  for (let i = from + 1; i < to; i++) {
    if (before(order[i - 1], order[i]) > 0) {
      sorted = false;
      break;
    }
  }
  if (sorted) return;
  const slice = Array.from(order.subarray(from, to)).sort(before);
  order.set(slice, from);
}

/** Finds a repeated docid within one query with an open-addressing table reused across queries. */
export class DuplicateFinder {
  private table = new Int32Array(256);
  private stamp = new Int32Array(256);
  private generation = 0;

  find(run: DocIds, from: number, to: number): number {
    const size = to - from;
    if (this.table.length < size * 2) {
      let cap = this.table.length;
      while (cap < size * 2) cap *= 2;
      this.table = new Int32Array(cap);
      this.stamp = new Int32Array(cap);
    }
    this.generation++;
    const mask = this.table.length - 1;
    for (let i = from; i < to; i++) {
      const e = run.order[i];
      let slot = run.docHash[e] & mask;
      while (this.stamp[slot] === this.generation) {
        const other = this.table[slot];
        if (run.docHash[other] === run.docHash[e] && compareDocIds(run, other, e) === 0) return e;
        slot = (slot + 1) & mask;
      }
      this.stamp[slot] = this.generation;
      this.table[slot] = e;
    }
    return -1;
  }
}

export function docIdOf(run: DocIds, entry: number): string {
  return decoder.decode(run.bytes.subarray(run.docStart[entry], run.docStart[entry] + run.docLength[entry]));
}

/**
 * The queries to evaluate, in qid order: by default those with both a list and judgements
 * (trec_eval); with `complete`, every judged query, a missing list counting as empty (trec_eval -c).
 * `itemsDepth` keeps that many candidate ids per list, for Coverage@K.
 */
export function runQueries(
  run: ParsedRun,
  judgements: ParsedQrels | Qrels,
  options: { complete?: boolean; itemsDepth?: number } = {},
): QueryInput[] {
  const qrels = judgements instanceof Map ? qrelsFromMap(judgements) : judgements;
  const lookup = new JudgementLookup(qrels);
  const out: QueryInput[] = [];
  const labels = new Float64Array(run.order.length);
  const listed = new Uint8Array(qrels.qids.length);
  for (let q = 0; q < run.qids.length; q++) {
    const jq = lookup.queryOf(run.qids[q]);
    if (jq < 0) continue;
    listed[jq] = 1;
    lookup.load(jq);
    const from = run.ranges[q],
      to = run.ranges[q + 1];
    const ranked = labels.subarray(from, to);
    for (let i = from; i < to; i++) ranked[i - from] = lookup.labelOf(run, run.order[i]);
    const items = options.itemsDepth
      ? Array.from({ length: Math.min(options.itemsDepth, to - from) }, (_, i) =>
          docIdOf(run, run.order[from + i]),
        )
      : undefined;
    out.push({ qid: run.qids[q], ranked, judged: lookup.judged(jq), items });
  }
  if (options.complete) {
    qrels.qids.forEach((qid, jq) => {
      if (!listed[jq]) out.push({ qid, ranked: new Float64Array(0), judged: lookup.judged(jq), items: [] });
    });
  }
  return sortedByQid(out);
}

export function sortedByQid<T extends { qid: string }>(queries: T[]): T[] {
  const byQid = (a: T, b: T) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0);
  for (let i = 1; i < queries.length; i++)
    if (byQid(queries[i - 1], queries[i]) > 0) return queries.sort(byQid);
  return queries;
}

/** The lists of a run as plain arrays of docids in trec_eval order (small runs, tests, the app). */
export function runLists(run: ParsedRun): Map<string, string[]> {
  const out = new Map<string, string[]>();
  run.qids.forEach((qid, q) => {
    const docs: string[] = [];
    for (let i = run.ranges[q]; i < run.ranges[q + 1]; i++) docs.push(docIdOf(run, run.order[i]));
    out.set(qid, docs);
  });
  return out;
}

export function formatQrelsLine(qid: string, docid: string, rel: number) {
  return `${qid} 0 ${docid} ${rel}`;
}

export function formatRunLine(qid: string, docid: string, rank: number, score: number, tag: string) {
  return `${qid} Q0 ${docid} ${rank} ${score} ${tag}`;
}
