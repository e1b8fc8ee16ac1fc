import {
  decodeImportBytes,
  parseCsvBlock,
  parseJsonlBlock,
  type CsvState,
  type FileFormat,
  type RowError,
  type SourceRecord,
} from "./parse";

/** A line longer than this is refused rather than held: no import row comes near it. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A file's problem that stops reading it (not UTF-8, a line too long): it is reported as the file's error. */
export class ImportFileError extends Error {
  constructor(readonly error: RowError) {
    super(error.message);
  }
}

export interface RecordBlock {
  records: SourceRecord[];
  errors: RowError[];
  /** The CSV header once read (null before); for JSONL, the keys seen so far. */
  columns: string[] | null;
  /** Bytes of the file consumed so far. */
  bytesRead: number;
}

/**
 * Reads an import file from a stream of chunks as blocks of records, holding one block at a time, so a
 * 1,000,000-row file costs the memory of a block and not of the file. Blocks end on a line break
 * (a line break byte is never inside a multi-byte UTF-8 character, so each block decodes on its own
 * and a bad byte is reported with its line), and for CSV outside a quoted field.
 */
export async function* readRecords(
  chunks: AsyncIterable<Uint8Array | string>,
  format: FileFormat,
): AsyncGenerator<RecordBlock> {
  const csv: CsvState = { header: null, line: 1 };
  const keys = new Set<string>();
  let carry = ""; // CSV text after the last row boundary, whose quoted field goes on in the next block
  let carryLine = 1;
  let bytesRead = 0;
  for await (const { text, line, bytes } of lineBlocks(chunks)) {
    bytesRead = bytes;
    if (format === "jsonl") {
      yield { ...parseJsonlBlock(text, line, keys), columns: [...keys], bytesRead };
      continue;
    }
    const joined = carry + text;
    const start = carry ? carryLine : line;
    const end = lastRowEnd(joined);
    carry = joined.slice(end);
    carryLine = start + countLines(joined, 0, end);
    if (carry.length > MAX_LINE_BYTES)
      throw new ImportFileError({ line: carryLine, message: "opens a quoted field that never closes" });
    csv.line = start;
    yield { ...parseCsvBlock(joined.slice(0, end), csv), columns: csv.header, bytesRead };
  }
  if (format === "csv" && carry) {
    csv.line = carryLine;
    yield { ...parseCsvBlock(carry, csv), columns: csv.header, bytesRead };
  }
}

/** The offset just after the last line break that is outside a quoted field (0 if none). */
function lastRowEnd(text: string): number {
  let quoted = false;
  let end = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34)
      quoted = !quoted; // "" inside a quoted field toggles twice, as it should
    else if (c === 10 && !quoted) end = i + 1;
  }
  return end;
}

function countLines(text: string, from: number, to: number) {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Chunks regrouped into whole lines, decoded strictly as UTF-8, each with its first line number. */
async function* lineBlocks(chunks: AsyncIterable<Uint8Array | string>) {
  const encoder = new TextEncoder();
  let pending: Uint8Array = new Uint8Array(0);
  let line = 1;
  let bytes = 0;
  let first = true;
  const decode = (block: Uint8Array) => {
    const decoded = decodeImportBytes(block);
    if ("error" in decoded)
      throw new ImportFileError({ line: line + decoded.error.line - 1, message: decoded.error.message });
    // The byte-order mark of a spreadsheet export is dropped at the start of the file only.
    const text = first ? decoded.text.replace(/^\ufeff/, "") : decoded.text;
    first = false;
    return text;
  };
  for await (const chunk of chunks) {
    const data = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    bytes += data.length;
    const joined = pending.length ? concat(pending, data) : data;
    const cut = joined.lastIndexOf(10);
    if (cut === -1) {
      if (joined.length > MAX_LINE_BYTES)
        throw new ImportFileError({ line, message: "is longer than 16 MB (is this an import file?)" });
      pending = joined;
      continue;
    }
    const block = joined.subarray(0, cut + 1);
    const text = decode(block);
    yield { text, line, bytes };
    line += countLines(text, 0, text.length);
    pending = joined.slice(cut + 1);
  }
  if (pending.length) yield { text: decode(pending), line, bytes };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
