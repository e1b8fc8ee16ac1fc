import type { QueryInput } from "./evaluate";

/** Judgements: query id → candidate id → label. */
export type Qrels = Map<string, Map<string, number>>;

export class FormatError extends Error {}

/** Entries held as offsets into the file's bytes: each docid's start, length and FNV-1a hash. */
interface DocIds {
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

export function parseQrelsBytes(bytes: Uint8Array, source = "qrels"): ParsedQrels {
  const lines = scanTrec(bytes, "qrels", source);
  const parsed: ParsedQrels = { ...groupByQuery(lines), docStart: lines.docStart, docLength: lines.docLength, docHash: lines.docHash, label: Int32Array.from(lines.value.subarray(0, lines.count)), bytes };
  const seen = new DuplicateFinder();
  for (let q = 0; q < parsed.qids.length; q++) {
    const dup = seen.find(parsed, parsed.ranges[q], parsed.ranges[q + 1]);
    if (dup >= 0) throw new FormatError(`${source}: ${docIdOf(parsed, dup)} is judged twice for query ${parsed.qids[q]}`);
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
    for (let i = parsed.ranges[q]; i < parsed.ranges[q + 1]; i++) judged.set(docIdOf(parsed, parsed.order[i]), parsed.label[parsed.order[i]]);
    out.set(qid, judged);
  });
  return out;
}

/** Judgements given as a Map (from the database, say) in the compact form runQueries reads. */
export function qrelsFromMap(qrels: Qrels): ParsedQrels {
  const lines: string[] = [];
  for (const [qid, judged] of qrels) for (const [doc, label] of judged) lines.push(`${qid} 0 ${doc} ${label}`);
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

const SPACE = 32,
  TAB = 9,
  NL = 10,
  CR = 13;

const decoder = new TextDecoder();

/**
 * One pass over the bytes of a run (6 fields) or qrels (4 fields): for each non-blank line, its query
 * (field 0, decoded only when it changes from the line before), its docid (field 2: offset, length
 * and FNV-1a hash) and its number (the score, field 4, or the label, field 3). A byte > 32 is part of a
 * field; reading past the end gives undefined, which ends every loop without a bounds check.
 */
function scanTrec(bytes: Uint8Array, kind: "run" | "qrels", source: string) {
  const expected = kind === "run" ? 6 : 4;
  const valueField = kind === "run" ? 4 : 3;
  const shape = kind === "run" ? 'expected 6 fields "qid Q0 docid rank score tag"' : 'expected 4 fields "qid iter docid rel"';
  let capacity = Math.max(1024, Math.ceil(bytes.length / 30));
  // Each entry's query is written only once the file turns out not to be grouped by query; grouped
  // (the usual case), where each query starts is enough.
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
  let prevQStart = -1,
    prevQLength = -1,
    prevQ = -1;
  const n = bytes.length;
  let i = 0;
  let line = 0;
  while (i < n) {
    line++;
    let field = 0;
    let qs = 0,
      ql = 0,
      ds = 0,
      dl = 0,
      h = 0,
      value = NaN,
      vs = 0,
      ve = 0;
    let sameQuery = prevQLength >= 0;
    let c = bytes[i];
    for (;;) {
      while (c === SPACE || c === TAB || c === CR) c = bytes[++i];
      if (!(c > 32)) break;
      const s = i;
      if (field === 2) {
        h = 0x811c9dc5;
        while (c > 32) {
          h = Math.imul(h ^ c, 0x01000193);
          c = bytes[++i];
        }
        ds = s;
        dl = i - s;
      } else if (field === valueField) {
        let negative = false;
        if (c === 45) {
          negative = true;
          c = bytes[++i];
        } else if (c === 43) c = bytes[++i];
        let mantissa = 0,
          digits = 0,
          fraction = -1,
          simple = true;
        while (c > 32) {
          if (c >= 48 && c <= 57) {
            mantissa = mantissa * 10 + (c - 48);
            digits++;
            if (fraction >= 0) fraction++;
          } else if (c === 46 && fraction < 0) fraction = 0;
          else simple = false;
          c = bytes[++i];
        }
        // Integer mantissa over one exact power of ten: one rounding, the same double as Number().
        vs = s;
        ve = i;
        if (simple && digits > 0 && digits <= 15) value = (fraction > 0 ? mantissa / POW10[fraction] : mantissa) * (negative ? -1 : 1);
        else value = Number(decoder.decode(bytes.subarray(s, i)));
      } else if (field === 0) {
        // The query, compared with the line before's as it is read (one pass over its bytes).
        let k = 0;
        while (c > 32) {
          if (sameQuery && bytes[prevQStart + k] !== c) sameQuery = false;
          k++;
          c = bytes[++i];
        }
        qs = s;
        ql = i - s;
        if (ql !== prevQLength) sameQuery = false;
      } else while (c > 32) c = bytes[++i];
      field++;
    }
    if (c === NL) i++;
    else if (i < n) throw new FormatError(`${source} line ${line}: control character ${c} inside a line`);
    if (field === 0) continue;
    if (field !== expected) throw new FormatError(`${source} line ${line}: ${shape}, found ${field}`);
    if (Number.isNaN(value)) {
      throw new FormatError(`${source} line ${line}: the ${kind === "run" ? "score" : "label"} "${decoder.decode(bytes.subarray(vs, ve))}" is not a number`);
    }
    if (kind === "qrels" && !Number.isInteger(value)) throw new FormatError(`${source} line ${line}: the label ${value} is not a whole number`);
    if (dl > 255) throw new FormatError(`${source} line ${line}: the candidate id is longer than 255 bytes`);
    if (count === capacity) {
      capacity = Math.ceil(capacity * 1.6);
      if (queryOf) queryOf = grow(queryOf, capacity);
      docStart = grow(docStart, capacity);
      docLength = grow(docLength, capacity);
      docHash = grow(docHash, capacity);
      values = grow(values, capacity);
    }
    let q = prevQ;
    if (!sameQuery) {
      const qid = decoder.decode(bytes.subarray(qs, qs + ql));
      q = qidIndex.get(qid) ?? -1;
      if (q < 0) {
        q = qids.length;
        qids.push(qid);
        qidIndex.set(qid, q);
        starts.push(count);
      } else if (!queryOf) {
        // A query seen before, after another one: from here on, every entry's query is kept.
        grouped = false;
        queryOf = new Int32Array(capacity);
        for (let j = 0; j < starts.length; j++) queryOf.fill(j, starts[j], j + 1 < starts.length ? starts[j + 1] : count);
      }
      prevQ = q;
      prevQStart = qs;
      prevQLength = ql;
    }
    if (queryOf) queryOf[count] = q;
    docStart[count] = ds;
    docLength[count] = dl;
    docHash[count] = h;
    values[count] = value;
    count++;
  }
  return { qids, queryOf, starts, docStart, docLength, docHash, value: values, count, grouped };
}

/** Entries grouped by query with a stable counting sort: query q's are order[ranges[q] .. ranges[q+1]). */
function groupByQuery(lines: { qids: string[]; queryOf: Int32Array | null; starts: number[]; count: number; grouped: boolean }) {
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

export function parseRun(bytes: Uint8Array, source = "run"): ParsedRun {
  const lines = scanTrec(bytes, "run", source);
  const run: ParsedRun = { ...groupByQuery(lines), docStart: lines.docStart, docLength: lines.docLength, docHash: lines.docHash, score: lines.value, bytes };
  const seen = new DuplicateFinder();
  for (let q = 0; q < run.qids.length; q++) {
    sortQuery(run, run.ranges[q], run.ranges[q + 1]);
    const dup = seen.find(run, run.ranges[q], run.ranges[q + 1]);
    if (dup >= 0) throw new FormatError(`${source}: ${docIdOf(run, dup)} appears twice in the list of query ${run.qids[q]}`);
  }
  return run;
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T, capacity: number): T {
  const next = new (array.constructor as { new (n: number): T })(capacity);
  next.set(array);
  return next;
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

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The queries to evaluate, in qid order: by default those with both a list and judgements
 * (trec_eval); with `complete`, every judged query, a missing list counting as empty (trec_eval -c).
 * `itemsDepth` keeps that many candidate ids per list, for Coverage@K.
 */
export function runQueries(run: ParsedRun, judgements: ParsedQrels | Qrels, options: { complete?: boolean; itemsDepth?: number; reuseScores?: boolean } = {}): QueryInput[] {
  const qrels = judgements instanceof Map ? qrelsFromMap(judgements) : judgements;
  const out: QueryInput[] = [];
  // Run and qrels usually list queries in the same order: the next run query is tried first, and
  // the index by qid is built only when that fails.
  let runIndex: Map<string, number> | null = null;
  let cursor = 0;
  // A small open-addressing table of the query's judged docids, reused from query to query, so
  // the ten million look-ups of a large run stay in the CPU cache; a hash hit is confirmed byte by byte.
  let table = new Int32Array(64);
  let stamp = new Int32Array(64);
  let generation = 0;
  // With `reuseScores` (a caller done with the run), the labels overwrite its scores, which nothing
  // reads once the lists are sorted: touching fresh memory costs page faults a large run notices.
  const labels = options.reuseScores ? run.score.subarray(0, run.order.length) : new Float64Array(run.order.length);
  const judgedLabels = new Float64Array(qrels.order.length);
  const runOrder = run.order,
    runHash = run.docHash,
    qrelsHash = qrels.docHash,
    qrelsLabel = qrels.label;
  for (let jq = 0; jq < qrels.qids.length; jq++) {
    const qid = qrels.qids[jq];
    const jFrom = qrels.ranges[jq],
      jTo = qrels.ranges[jq + 1];
    // The query's labels, sorted descending by insertion (a query judges tens of candidates, not thousands).
    const judged = judgedLabels.subarray(jFrom, jTo);
    for (let i = jFrom; i < jTo; i++) {
      const label = qrelsLabel[qrels.order[i]];
      let k = i - jFrom;
      while (k > 0 && judged[k - 1] < label) {
        judged[k] = judged[k - 1];
        k--;
      }
      judged[k] = label;
    }
    let q: number | undefined;
    if (run.qids[cursor] === qid) q = cursor++;
    else {
      runIndex ??= new Map(run.qids.map((id, index) => [id, index]));
      q = runIndex.get(qid);
      if (q !== undefined) cursor = q + 1;
    }
    if (q === undefined) {
      if (options.complete) out.push({ qid, ranked: new Float64Array(0), judged, items: [] });
      continue;
    }
    if (table.length < (jTo - jFrom) * 2) {
      let size = table.length;
      while (size < (jTo - jFrom) * 2) size *= 2;
      table = new Int32Array(size);
      stamp = new Int32Array(size);
    }
    generation++;
    const mask = table.length - 1;
    for (let i = jFrom; i < jTo; i++) {
      const e = qrels.order[i];
      let slot = qrels.docHash[e] & mask;
      while (stamp[slot] === generation) slot = (slot + 1) & mask;
      stamp[slot] = generation;
      table[slot] = e;
    }
    const from = run.ranges[q],
      to = run.ranges[q + 1];
    const ranked = labels.subarray(from, to);
    for (let i = from; i < to; i++) {
      const e = runOrder[i];
      const h = runHash[e];
      let label = NaN;
      let slot = h & mask;
      while (stamp[slot] === generation) {
        const j = table[slot];
        if (qrelsHash[j] === h && sameDocId(run, e, qrels, j)) {
          label = qrelsLabel[j];
          break;
        }
        slot = (slot + 1) & mask;
      }
      ranked[i - from] = label;
    }
    const items = options.itemsDepth ? Array.from({ length: Math.min(options.itemsDepth, to - from) }, (_, i) => docIdOf(run, run.order[from + i])) : undefined;
    out.push({ qid, ranked, judged, items });
  }
  const byQid = (a: QueryInput, b: QueryInput) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0);
  for (let i = 1; i < out.length; i++) if (byQid(out[i - 1], out[i]) > 0) return out.sort(byQid);
  return out;
}

function sameDocId(a: DocIds, i: number, b: DocIds, j: number) {
  const length = a.docLength[i];
  if (length !== b.docLength[j]) return false;
  const sa = a.docStart[i],
    sb = b.docStart[j];
  for (let k = 0; k < length; k++) if (a.bytes[sa + k] !== b.bytes[sb + k]) return false;
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
