import { grow } from "../lib/grow";

export class FormatError extends Error {}

/**
 * Consecutive lines of one query as they were read: entry i's docid is bytes[docStart[i], +docLength[i])
 * with FNV-1a hash docHash[i], and its number (a run's score, a qrels label) is value[i]. The arrays
 * are the reader's own and are overwritten once the callback returns.
 */
export interface Segment {
  qid: string;
  count: number;
  bytes: Uint8Array;
  docStart: Int32Array;
  docLength: Uint8Array;
  docHash: Int32Array;
  value: Float64Array;
}

/**
 * Reads TREC runs (`qid Q0 docid rank score tag`) and qrels (`qid iter docid rel`) a segment at a
 * time: each stretch of consecutive lines with one query goes to `onSegment` once it ends. Only the
 * fields measures need are decoded (query, docid, number), and a segment's entries sit in small
 * arrays reused from one to the next, so a file of ten million lines never becomes ten million
 * strings, nor its entries a second copy of the file in memory.
 */
export class TrecReader {
  /** Lines read so far, blank ones included; error messages count from 1. */
  line = 0;
  private readonly expected: number;
  private readonly valueField: number;
  /** What a number must look like, besides JavaScript's Number reading it (null: anything Number reads). */
  private readonly numberPattern: RegExp | null;
  private readonly segment: Segment;
  /** The fields of the last line the general reader read: offsets and lengths into its bytes. */
  private readonly fields: LineFields = {
    count: 0,
    qs: 0,
    ql: 0,
    ds: 0,
    dl: 0,
    h: 0,
    value: NaN,
    vs: 0,
    ve: 0,
    sameQuery: false,
  };

  constructor(
    private readonly kind: "run" | "qrels",
    private readonly source: string,
    /** Called with each segment; returning false stops the reading. */
    private readonly onSegment: (segment: Segment) => boolean | void,
    /**
     * Numbers only as C reads them whole: a score as atof, a label as atol. "0x10", "Infinity" or a
     * label "1e1" (which atol reads as 1) are then not numbers, for trec_eval mode to give such a file
     * to its own reader of C's rules.
     */
    cNumbers = false,
  ) {
    this.numberPattern = !cNumbers ? null : kind === "run" ? ATOF_WHOLE : ATOL_WHOLE;
    this.expected = kind === "run" ? 6 : 4;
    this.valueField = kind === "run" ? 4 : 3;
    const capacity = 256;
    this.segment = {
      qid: "",
      count: 0,
      bytes: new Uint8Array(0),
      docStart: new Int32Array(capacity),
      docLength: new Uint8Array(capacity),
      docHash: new Int32Array(capacity),
      value: new Float64Array(capacity),
    };
  }

  /**
   * Reads the lines of `bytes`. With `more` (a file read in pieces, `bytes` ending with a whole
   * line), the last segment may go on in the next piece: it is not passed on, and the returned
   * offset is where its first line starts, for the caller to hand back at the front of the next
   * piece. Returns bytes.length when everything was passed on, and -1 when `onSegment` stopped it.
   *
   * A byte > 32 is part of a field; reading past the end gives undefined, which ends every loop
   * without a bounds check.
   */
  read(bytes: Uint8Array, more = false): number {
    const { kind, source } = this;
    const segment = this.segment;
    const fields = this.fields;
    segment.bytes = bytes;
    segment.count = 0;
    let count = 0;
    let segmentStart = 0,
      segmentLine = this.line;
    let prevQStart = -1,
      prevQLength = -1;
    const n = bytes.length;
    let i = 0;
    let line = this.line;
    while (i < n) {
      line++;
      const lineStart = i;
      const usualEnd = this.readUsualLine(bytes, i, prevQStart, prevQLength);
      if (usualEnd >= 0) i = usualEnd;
      else {
        i = this.readLine(bytes, lineStart, line);
        if (fields.count === 0) continue;
        fields.sameQuery = fields.ql === prevQLength;
        for (let k = 0; fields.sameQuery && k < fields.ql; k++)
          fields.sameQuery = bytes[fields.qs + k] === bytes[prevQStart + k];
      }
      checkFields(fields, kind, source, line, bytes);
      if (!fields.sameQuery) {
        if (prevQLength >= 0) {
          segment.count = count;
          if (this.onSegment(segment) === false) return -1;
        }
        segment.qid = decoder.decode(bytes.subarray(fields.qs, fields.qs + fields.ql));
        count = 0;
        segmentStart = lineStart;
        segmentLine = line - 1;
        prevQStart = fields.qs;
        prevQLength = fields.ql;
      }
      this.append(count++);
    }
    if (more && prevQLength >= 0) {
      // The last segment is read again, whole, from the next piece.
      this.line = segmentLine;
      return segmentStart;
    }
    this.line = line;
    segment.count = count;
    if (count > 0 && this.onSegment(segment) === false) return -1;
    return n;
  }

  /** Puts the fields of the line just read at place `at` of the segment, growing its arrays when full. */
  private append(at: number) {
    const { segment, fields } = this;
    if (at === segment.docStart.length) {
      const capacity = at * 2;
      segment.docStart = grow(segment.docStart, capacity);
      segment.docLength = grow(segment.docLength, capacity);
      segment.docHash = grow(segment.docHash, capacity);
      segment.value = grow(segment.value, capacity);
    }
    segment.docStart[at] = fields.ds;
    segment.docLength[at] = fields.dl;
    segment.docHash[at] = fields.h;
    segment.value[at] = fields.value;
  }

  /**
   * The usual line, read field by field in one pass: one space or tab between fields, a newline (or
   * CR LF) at the end; its fields go to `this.fields`, with whether its query is the line before's
   * (at prevQStart, prevQLength; −1 for none). Returns where the next line starts, or −1 for any other
   * line, which the general reader (readLine) reads again.
   */
  private readUsualLine(bytes: Uint8Array, i: number, prevQStart: number, prevQLength: number): number {
    const fields = this.fields;
    const isRun = this.kind === "run";
    const qs = i;
    let h = 0x811c9dc5;
    let sameQuery = prevQLength >= 0;
    let c = bytes[i];
    if (!(c > 32)) return -1;
    // The query, compared with the line before's as it is read.
    let k = 0;
    while (c > 32) {
      if (sameQuery && bytes[prevQStart + k] !== c) sameQuery = false;
      k++;
      c = bytes[++i];
    }
    const ql = i - qs;
    if (ql !== prevQLength) sameQuery = false;
    if (c !== SPACE && c !== TAB) return -1;
    c = bytes[++i];
    if (!(c > 32)) return -1;
    while (c > 32) c = bytes[++i];
    if (c !== SPACE && c !== TAB) return -1;
    c = bytes[++i];
    if (!(c > 32)) return -1;
    const ds = i;
    while (c > 32) {
      h = Math.imul(h ^ c, 0x01000193);
      c = bytes[++i];
    }
    const dl = i - ds;
    if (c !== SPACE && c !== TAB) return -1;
    c = bytes[++i];
    if (!(c > 32)) return -1;
    if (isRun) {
      // The rank, which trec_eval ignores too.
      while (c > 32) c = bytes[++i];
      if (c !== SPACE && c !== TAB) return -1;
      c = bytes[++i];
      if (!(c > 32)) return -1;
    }
    i = readNumber(bytes, i, fields, this.numberPattern);
    c = bytes[i];
    if (isRun) {
      // The run's tag.
      if (c !== SPACE && c !== TAB) return -1;
      c = bytes[++i];
      if (!(c > 32)) return -1;
      while (c > 32) c = bytes[++i];
    }
    if (c === CR) c = bytes[++i];
    if (c !== NL) return -1;
    fields.qs = qs;
    fields.ql = ql;
    fields.ds = ds;
    fields.dl = dl;
    fields.h = h;
    fields.sameQuery = sameQuery;
    return i + 1;
  }

  /**
   * Any line, however spaced: its fields (query, docid, number) go to `this.fields`, with count 0
   * for a blank line; a line of the wrong shape is an error naming it. Returns where the next line starts.
   */
  private readLine(bytes: Uint8Array, i: number, line: number): number {
    const { expected, valueField, kind, source, fields } = this;
    let field = 0;
    let c = bytes[i];
    for (;;) {
      while (c === SPACE || c === TAB || c === CR) c = bytes[++i];
      if (!(c > 32)) break;
      const s = i;
      while (c > 32) c = bytes[++i];
      if (field === 0) {
        fields.qs = s;
        fields.ql = i - s;
      } else if (field === 2) {
        fields.ds = s;
        fields.dl = i - s;
        fields.h = fnv1a(bytes, s, i);
      } else if (field === valueField) {
        fields.vs = s;
        fields.ve = i;
        fields.value = numberOf(bytes, s, i, this.numberPattern);
      }
      field++;
    }
    if (c === NL) i++;
    else if (i < bytes.length)
      throw new FormatError(`${source} line ${line}: control character ${c} inside a line`);
    // A run line may have more fields than six: trec_eval ignores them (its own results.trunc has them).
    if (field !== 0 && (kind === "run" ? field < expected : field !== expected)) {
      throw new FormatError(
        `${source} line ${line}: ${kind === "run" ? 'expected 6 fields "qid Q0 docid rank score tag"' : 'expected 4 fields "qid iter docid rel"'}, found ${field}`,
      );
    }
    fields.count = field;
    return i;
  }
}

const SPACE = 32,
  TAB = 9,
  NL = 10,
  CR = 13;

/** The fields of one line: offsets and lengths into the bytes read (query, docid, number), and the docid's hash. */
interface LineFields {
  /** How many fields the general reader found; 0 for a blank line. */
  count: number;
  qs: number;
  ql: number;
  ds: number;
  dl: number;
  h: number;
  value: number;
  vs: number;
  ve: number;
  /** Whether the line's query is the one of the line before. */
  sameQuery: boolean;
}

/**
 * The number starting at i (a run's score, a qrels label) into fields.value (NaN when it is none), its
 * extent into fields.vs and fields.ve; returns where it ends.
 */
function readNumber(bytes: Uint8Array, i: number, fields: LineFields, pattern: RegExp | null): number {
  const vs = i;
  let c = bytes[i];
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
  fields.vs = vs;
  fields.ve = i;
  // Integer mantissa over one exact power of ten: one rounding, the same double as Number().
  if (simple && digits > 0 && digits <= 15)
    fields.value = (fraction > 0 ? mantissa / POW10[fraction] : mantissa) * (negative ? -1 : 1);
  else fields.value = numberOf(bytes, vs, i, pattern);
  return i;
}

/** A line's number and docid as the format allows them, or an error naming the line. */
function checkFields(
  fields: LineFields,
  kind: "run" | "qrels",
  source: string,
  line: number,
  bytes: Uint8Array,
) {
  const isRun = kind === "run";
  if (Number.isNaN(fields.value))
    throw new FormatError(
      `${source} line ${line}: the ${isRun ? "score" : "label"} "${decoder.decode(bytes.subarray(fields.vs, fields.ve))}" is not a number`,
    );
  if (!isRun && !Number.isInteger(fields.value))
    throw new FormatError(`${source} line ${line}: the label ${fields.value} is not a whole number`);
  if (fields.dl > 255)
    throw new FormatError(`${source} line ${line}: the candidate id is longer than 255 bytes`);
}

const decoder = new TextDecoder();
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

function fnv1a(bytes: Uint8Array, from: number, to: number) {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}

function numberOf(bytes: Uint8Array, from: number, to: number, pattern: RegExp | null = null) {
  const text = decoder.decode(bytes.subarray(from, to));
  return pattern && !pattern.test(text) ? NaN : Number(text);
}

/** A whole field that C's atof reads to its end, and so to the value Number gives. */
const ATOF_WHOLE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** A whole field that C's atol reads to its end. */
const ATOL_WHOLE = /^[+-]?\d+$/;
