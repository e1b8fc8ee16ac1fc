import { EvaluationBuilder, type Evaluation } from "../eval/evaluate";
import { JudgementLookup } from "../eval/judgement-lookup";
import { readInto } from "./read-range";
import type { Measure } from "../eval/measures";
import { DuplicateFinder, orderList, type DocIds, type ParsedQrels } from "../eval/trec";
import { TrecReader } from "../eval/trec-reader";

/** The run is read in pieces of this size: few reads, and memory that does not grow with the file. */
const PIECE_BYTES = 8 * 1024 * 1024;

export interface RunPartEvaluation extends Evaluation {
  /** Every query the part lists, judged or not, in file order. */
  runQids: string[];
}

/**
 * Evaluates bytes [start, end) of a run file grouped by query (each query's lines together, the
 * usual layout), reading it a piece at a time: each query's list is ordered, checked, labelled
 * and measured as soon as its last line is read, so memory holds one piece and one list, not the
 * file. Returns null as soon as a query comes back after another (a run not grouped by query,
 * for the caller to parse whole). Coverage@K, which needs every list, is not computed here.
 */
export function evaluateRunRange(
  file: string,
  start: number,
  end: number,
  qrels: ParsedQrels,
  measures: readonly Measure[],
  pieceBytes = PIECE_BYTES,
): RunPartEvaluation | null {
  const builder = new EvaluationBuilder(measures);
  const lookup = new JudgementLookup(qrels);
  const duplicates = new DuplicateFinder();
  const runQids: string[] = [];
  const seen = new Set<string>();
  let order = new Int32Array(256);
  let labels = new Float64Array(256);
  const reader = new TrecReader("run", file, (segment) => {
    const { qid, count } = segment;
    if (seen.has(qid)) return false;
    seen.add(qid);
    runQids.push(qid);
    if (order.length < count) {
      order = new Int32Array(count * 2);
      labels = new Float64Array(count * 2);
    }
    for (let i = 0; i < count; i++) order[i] = i;
    const list: DocIds = {
      bytes: segment.bytes,
      docStart: segment.docStart,
      docLength: segment.docLength,
      docHash: segment.docHash,
      order,
    };
    orderList(list, segment.value, 0, count, duplicates, qid, file);
    const judged = lookup.queryOf(qid);
    if (judged < 0) return true;
    lookup.load(judged);
    for (let i = 0; i < count; i++) labels[i] = lookup.labelOf(list, order[i]);
    builder.add(qid, labels.subarray(0, count), lookup.judged(judged));
    return true;
  });
  if (!readPieces(file, start, end, reader, pieceBytes)) return null;
  return { ...builder.build(), runQids };
}

/**
 * Reads bytes [start, end) of a file into `reader` a piece at a time, each piece ending with a whole
 * line; the query a piece ends in is handed back at the front of the next. Returns false when the
 * reader's callback stopped it.
 */
export function readPieces(
  file: string,
  start: number,
  end: number,
  reader: TrecReader,
  pieceBytes = PIECE_BYTES,
): boolean {
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(pieceBytes, end - start)));
  let filled = 0;
  for (let position = start; ;) {
    const read = readInto(file, buffer, filled, position, Math.min(end, position + buffer.length - filled));
    filled += read;
    position += read;
    // The range is read to its end when a read comes short of filling the buffer.
    const last = filled < buffer.length || position >= end;
    // Whole lines only, unless the range is read to its end.
    const lineEnd = last ? filled : buffer.lastIndexOf(10, filled - 1) + 1;
    const resume = reader.read(buffer.subarray(0, lineEnd), !last);
    if (resume < 0) return false;
    if (last) break;
    // The query still being read moves to the front, and the next piece is read after it.
    buffer.copy(buffer, 0, resume, filled);
    filled -= resume;
    if (filled > buffer.length >> 1) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
  }
  return true;
}
