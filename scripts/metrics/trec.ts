import type { QueryInput } from "./evaluate";

/** Judgements: query id → candidate id → label. */
export type Qrels = Map<string, Map<string, number>>;

export class FormatError extends Error {}

/** TREC qrels, one `qid iter docid rel` per line; rel is an integer label. */
export function parseQrels(text: string, source = "qrels"): Qrels {
  const qrels: Qrels = new Map();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const fields = line.split(/\s+/);
    if (fields.length !== 4) throw new FormatError(`${source} line ${i + 1}: expected 4 fields "qid iter docid rel", found ${fields.length}`);
    const [qid, , docid, relText] = fields;
    const rel = Number(relText);
    if (!Number.isInteger(rel)) throw new FormatError(`${source} line ${i + 1}: the label "${relText}" is not a whole number`);
    let judged = qrels.get(qid);
    if (!judged) qrels.set(qid, (judged = new Map()));
    if (judged.has(docid)) throw new FormatError(`${source} line ${i + 1}: ${docid} is judged twice for query ${qid}`);
    judged.set(docid, rel);
  }
  return qrels;
}

/**
 * A TREC run (`qid Q0 docid rank score tag`) held as offsets into the file's bytes, so that a run of
 * ten million lines does not become ten million strings. Within a query, entries are in trec_eval's
 * order: score descending, ties broken by docid descending (byte order); the rank column is ignored.
 */
export interface ParsedRun {
  qids: string[];
  /** Query q's entries are order[ranges[q] .. ranges[q+1]). */
  ranges: Int32Array;
  order: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  docHash: Int32Array;
  score: Float64Array;
  bytes: Uint8Array;
}

const SPACE = 32,
  TAB = 9,
  NL = 10,
  CR = 13;

const decoder = new TextDecoder();

export function parseRun(bytes: Uint8Array, source = "run"): ParsedRun {
  let capacity = Math.max(1024, Math.ceil(bytes.length / 32));
  let queryOf = new Int32Array(capacity);
  let docStart = new Int32Array(capacity);
  let docEnd = new Int32Array(capacity);
  let docHash = new Int32Array(capacity);
  let score = new Float64Array(capacity);
  const qids: string[] = [];
  const qidIndex = new Map<string, number>();
  let count = 0;
  let prevQStart = -1,
    prevQEnd = -1,
    prevQ = -1;
  const starts = new Int32Array(6);
  const ends = new Int32Array(6);
  let pos = 0;
  let line = 0;
  const n = bytes.length;
  while (pos < n) {
    line++;
    let end = pos;
    while (end < n && bytes[end] !== NL) end++;
    let lineEnd = end;
    if (lineEnd > pos && bytes[lineEnd - 1] === CR) lineEnd--;
    // Split into whitespace-separated fields.
    let fields = 0;
    let i = pos;
    while (i < lineEnd) {
      while (i < lineEnd && (bytes[i] === SPACE || bytes[i] === TAB)) i++;
      if (i >= lineEnd) break;
      const s = i;
      while (i < lineEnd && bytes[i] !== SPACE && bytes[i] !== TAB) i++;
      if (fields < 6) {
        starts[fields] = s;
        ends[fields] = i;
      }
      fields++;
    }
    pos = end + 1;
    if (fields === 0) continue;
    if (fields !== 6) throw new FormatError(`${source} line ${line}: expected 6 fields "qid Q0 docid rank score tag", found ${fields}`);
    if (count === capacity) {
      capacity = Math.ceil(capacity * 1.6);
      queryOf = grow(queryOf, capacity);
      docStart = grow(docStart, capacity);
      docEnd = grow(docEnd, capacity);
      docHash = grow(docHash, capacity);
      score = grow(score, capacity);
    }
    // Runs are usually grouped by query: compare bytes with the previous qid before decoding one.
    const qs = starts[0],
      qe = ends[0];
    let q = prevQ;
    if (!(prevQ >= 0 && qe - qs === prevQEnd - prevQStart && sameBytes(bytes, qs, prevQStart, qe - qs))) {
      const qid = decoder.decode(bytes.subarray(qs, qe));
      q = qidIndex.get(qid) ?? -1;
      if (q < 0) {
        q = qids.length;
        qids.push(qid);
        qidIndex.set(qid, q);
      }
      prevQ = q;
      prevQStart = qs;
      prevQEnd = qe;
    }
    const value = parseNumber(bytes, starts[4], ends[4]);
    if (Number.isNaN(value)) {
      throw new FormatError(`${source} line ${line}: the score "${decoder.decode(bytes.subarray(starts[4], ends[4]))}" is not a number`);
    }
    queryOf[count] = q;
    docStart[count] = starts[2];
    docEnd[count] = ends[2];
    docHash[count] = fnv1a(bytes, starts[2], ends[2]);
    score[count] = value;
    count++;
  }
  // Group entries by query (a stable counting sort), then put each query in trec_eval's order.
  const ranges = new Int32Array(qids.length + 1);
  for (let e = 0; e < count; e++) ranges[queryOf[e] + 1]++;
  for (let q = 0; q < qids.length; q++) ranges[q + 1] += ranges[q];
  const fill = ranges.slice(0, qids.length);
  const order = new Int32Array(count);
  for (let e = 0; e < count; e++) order[fill[queryOf[e]]++] = e;
  const run: ParsedRun = { qids, ranges, order, docStart, docEnd, docHash, score, bytes };
  const seen = new DuplicateFinder();
  for (let q = 0; q < qids.length; q++) {
    sortQuery(run, ranges[q], ranges[q + 1]);
    const dup = seen.find(run, ranges[q], ranges[q + 1]);
    if (dup >= 0) throw new FormatError(`${source}: ${docIdOf(run, dup)} appears twice in the list of query ${qids[q]}`);
  }
  return run;
}

function grow<T extends Int32Array | Float64Array>(array: T, capacity: number): T {
  const next = new (array.constructor as { new (n: number): T })(capacity);
  next.set(array);
  return next;
}

function sameBytes(bytes: Uint8Array, a: number, b: number, length: number) {
  for (let i = 0; i < length; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

function fnv1a(bytes: Uint8Array, start: number, end: number) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h | 0;
}

/** Byte-order comparison of two entries' docids, as strcmp does. */
function compareDocIds(run: ParsedRun, a: number, b: number) {
  const { bytes, docStart, docEnd } = run;
  const la = docEnd[a] - docStart[a],
    lb = docEnd[b] - docStart[b];
  const n = Math.min(la, lb);
  for (let i = 0; i < n; i++) {
    const d = bytes[docStart[a] + i] - bytes[docStart[b] + i];
    if (d !== 0) return d;
  }
  return la - lb;
}

/** trec_eval's order: score descending, ties by docid descending. Already-ordered queries are not sorted. */
function sortQuery(run: ParsedRun, from: number, to: number) {
  const { order, score } = run;
  const before = (a: number, b: number) => score[b] - score[a] || compareDocIds(run, b, a);
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
class DuplicateFinder {
  private table = new Int32Array(256);
  private stamp = new Int32Array(256);
  private generation = 0;

  find(run: ParsedRun, from: number, to: number): number {
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

export function docIdOf(run: ParsedRun, entry: number): string {
  return decoder.decode(run.bytes.subarray(run.docStart[entry], run.docEnd[entry]));
}

/**
 * A decimal number parsed straight from bytes. Digits are gathered into an integer mantissa and
 * divided once by a power of ten: both are exact doubles, so the one rounding gives what Number()
 * gives. Exponents, long mantissas and anything unusual fall back to Number().
 */
function parseNumber(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (bytes[i] === 45 /* - */) {
    negative = true;
    i++;
  } else if (bytes[i] === 43 /* + */) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let seenDot = false;
  for (; i < end; i++) {
    const c = bytes[i];
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (seenDot) fraction++;
    } else if (c === 46 /* . */ && !seenDot) seenDot = true;
    else break;
  }
  if (i === end && digits > 0 && digits <= 15 && fraction <= 22) {
    const value = fraction === 0 ? mantissa : mantissa / POW10[fraction];
    return negative ? -value : value;
  }
  const text = decoder.decode(bytes.subarray(start, end));
  return text.trim() === "" ? NaN : Number(text);
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Judged labels of every qrels query, sorted descending, as the measures take them. */
export function judgedLabels(qrels: Qrels): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  for (const [qid, judged] of qrels) out.set(qid, Float64Array.from(judged.values()).sort().reverse());
  return out;
}

/**
 * The queries to evaluate, in qid order: by default those with both a list and judgements
 * (trec_eval); with `complete`, every judged query, a missing list counting as empty (trec_eval -c).
 * `itemsDepth` keeps that many candidate ids per list, for Coverage@K.
 */
export function runQueries(run: ParsedRun, qrels: Qrels, options: { complete?: boolean; itemsDepth?: number } = {}): QueryInput[] {
  const judgedByQuery = judgedLabels(qrels);
  const encoder = new TextEncoder();
  const out: QueryInput[] = [];
  const runIndex = new Map(run.qids.map((qid, q) => [qid, q]));
  for (const [qid, judgements] of qrels) {
    const q = runIndex.get(qid);
    if (q === undefined) {
      if (options.complete) out.push({ qid, ranked: new Float64Array(0), judged: judgedByQuery.get(qid)!, items: [] });
      continue;
    }
    // Labels by docid hash; a hash hit is confirmed byte by byte.
    const byHash = new Map<number, { bytes: Uint8Array; label: number }[]>();
    for (const [doc, label] of judgements) {
      const docBytes = encoder.encode(doc);
      const h = fnv1a(docBytes, 0, docBytes.length);
      const bucket = byHash.get(h);
      if (bucket) bucket.push({ bytes: docBytes, label });
      else byHash.set(h, [{ bytes: docBytes, label }]);
    }
    const from = run.ranges[q],
      to = run.ranges[q + 1];
    const ranked = new Float64Array(to - from);
    for (let i = from; i < to; i++) {
      const e = run.order[i];
      let label = NaN;
      const bucket = byHash.get(run.docHash[e]);
      if (bucket) {
        for (const candidate of bucket) {
          if (candidate.bytes.length === run.docEnd[e] - run.docStart[e] && sameEncoded(run.bytes, run.docStart[e], candidate.bytes)) {
            label = candidate.label;
            break;
          }
        }
      }
      ranked[i - from] = label;
    }
    const items = options.itemsDepth ? Array.from({ length: Math.min(options.itemsDepth, to - from) }, (_, i) => docIdOf(run, run.order[from + i])) : undefined;
    out.push({ qid, ranked, judged: judgedByQuery.get(qid)!, items });
  }
  return out.sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
}

function sameEncoded(bytes: Uint8Array, start: number, other: Uint8Array) {
  for (let i = 0; i < other.length; i++) if (bytes[start + i] !== other[i]) return false;
  return true;
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
