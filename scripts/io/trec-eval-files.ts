import fs from "node:fs";
import { JudgementLookup } from "../eval/judgement-lookup";
import {
  DuplicateFinder,
  FormatError,
  orderList,
  parseQrelsBytes,
  parseRun,
  type DocIds,
  type ParsedQrels,
} from "../eval/trec";
import { TrecReader } from "../eval/trec-reader";
import { noResults, TrecEvalQueries, type TrecEvalOptions } from "../trec-eval/engine";
import { readRange } from "./read-range";
import { readPieces } from "./trec-stream";

/**
 * `assay trec_eval` on two files, on `assay eval`'s engine: the qrels parsed into typed arrays, the
 * run read a piece at a time, each list ordered, labelled and measured as soon as its last line is
 * read, so memory holds a piece and the per-query values, not the run's lines as strings. A run not
 * grouped by query (trec_eval's own test runs) is parsed whole into typed arrays instead.
 *
 * Returns null for what only the text reader reads as trec_eval does (and words its errors as
 * trec_eval mode does): a line of any other shape, a number C would read differently from
 * JavaScript, a docid listed twice or over 255 bytes long. The caller then gives both files' text to
 * `trecEval`, whose output this equals byte for byte otherwise.
 */
export function trecEvalFiles(
  qrelsFile: string,
  runFile: string,
  options: TrecEvalOptions,
  sources = { qrels: qrelsFile, run: runFile },
  pieceBytes?: number,
): string | null {
  // Before any file is read: an unknown measure is the error to give.
  new TrecEvalQueries(options);
  try {
    const qrels = parseQrelsBytes(fs.readFileSync(qrelsFile), sources.qrels, true);
    const size = fs.statSync(runFile).size;
    const evaluation =
      evaluateStreamed(qrels, runFile, size, options, sources.run, pieceBytes) ??
      evaluateWhole(qrels, runFile, options, sources.run);
    if (evaluation.lists === 0) throw noResults(sources.run);
    const { queries, lookup, listed } = evaluation;
    // 10.0 with -c evaluates each judged query the run lacks as an empty list.
    if (options.v10 && options.complete)
      qrels.qids.forEach((qid, q) => {
        if (!listed[q]) queries.add(qid, null, lookup.judged(q));
      });
    let positiveLabels = 0;
    for (const label of qrels.label) if (label > 0) positiveLabels++;
    const runId = queries.measures.some((m) => m.def.name === "runid") ? lastRunTag(runFile, size) : "";
    return queries.print(runId, { queries: qrels.qids.length, positiveLabels });
  } catch (error) {
    if (error instanceof FormatError) return null;
    throw error;
  }
}

/** The run's judged queries evaluated, which of the qrels' queries it listed, and how many lists it has. */
interface RunEvaluation {
  queries: TrecEvalQueries;
  lookup: JudgementLookup;
  listed: Uint8Array;
  lists: number;
}

function evaluateStreamed(
  qrels: ParsedQrels,
  runFile: string,
  size: number,
  options: TrecEvalOptions,
  source: string,
  pieceBytes: number | undefined,
): RunEvaluation | null {
  const queries = new TrecEvalQueries(options);
  const lookup = new JudgementLookup(qrels);
  const listed = new Uint8Array(qrels.qids.length);
  const lists = readRunLists(runFile, size, options, source, lookup, pieceBytes, (qid, q, labels) => {
    listed[q] = 1;
    queries.add(qid, labels, lookup.judged(q));
  });
  return lists === null ? null : { queries, lookup, listed, lists };
}

/** A run whose queries are not grouped: parsed whole into typed arrays, then each list labelled and measured. */
function evaluateWhole(
  qrels: ParsedQrels,
  runFile: string,
  options: TrecEvalOptions,
  source: string,
): RunEvaluation {
  const run = parseRun(fs.readFileSync(runFile), source, { cNumbers: true, floatScores: !options.v10 });
  const queries = new TrecEvalQueries(options);
  const lookup = new JudgementLookup(qrels);
  const listed = new Uint8Array(qrels.qids.length);
  let labels = new Float64Array(256);
  run.qids.forEach((qid, r) => {
    const q = lookup.queryOf(qid);
    if (q < 0) return;
    listed[q] = 1;
    lookup.load(q);
    const from = run.ranges[r];
    const kept = Math.min(run.ranges[r + 1] - from, options.maxRetrieved ?? Infinity);
    if (labels.length < kept) labels = new Float64Array(kept * 2);
    for (let i = 0; i < kept; i++) labels[i] = lookup.labelOf(run, run.order[from + i]);
    queries.add(qid, labels.subarray(0, kept), lookup.judged(q));
  });
  return { queries, lookup, listed, lists: run.qids.length };
}

/**
 * Reads the run's lists in file order, each in trec_eval's order and cut to -M, and hands each judged
 * query's labels (NaN: not in the qrels) to `onList`, with its query in the qrels; returns how many
 * lists it read, judged or not, or null for a run whose queries are not grouped.
 */
function readRunLists(
  runFile: string,
  size: number,
  options: TrecEvalOptions,
  source: string,
  lookup: JudgementLookup,
  pieceBytes: number | undefined,
  onList: (qid: string, q: number, labels: Float64Array) => void,
): number | null {
  const seen = new Set<string>();
  const duplicates = new DuplicateFinder();
  const maxRetrieved = options.maxRetrieved ?? Infinity;
  let order = new Int32Array(256);
  let labels = new Float64Array(256);
  const list: DocIds = {
    bytes: new Uint8Array(0),
    docStart: new Int32Array(0),
    docLength: new Uint8Array(0),
    docHash: new Int32Array(0),
    order,
  };
  const reader = new TrecReader(
    "run",
    source,
    (segment) => {
      const { qid, count, value } = segment;
      if (seen.has(qid)) return false;
      seen.add(qid);
      if (order.length < count) {
        order = new Int32Array(count * 2);
        labels = new Float64Array(count * 2);
      }
      // 9.0.8 keeps a score as a float: scores equal as floats tie, and their docids decide.
      if (!options.v10) for (let i = 0; i < count; i++) value[i] = Math.fround(value[i]);
      for (let i = 0; i < count; i++) order[i] = i;
      // One object for every list, its arrays the reader's own for this segment.
      list.bytes = segment.bytes;
      list.docStart = segment.docStart;
      list.docLength = segment.docLength;
      list.docHash = segment.docHash;
      list.order = order;
      orderList(list, value, 0, count, duplicates, qid, source);
      const q = lookup.queryOf(qid);
      if (q < 0) return true;
      lookup.load(q);
      const kept = Math.min(count, maxRetrieved);
      for (let i = 0; i < kept; i++) labels[i] = lookup.labelOf(list, order[i]);
      onList(qid, q, labels.subarray(0, kept));
      return true;
    },
    true,
  );
  if (!readPieces(runFile, 0, size, reader, pieceBytes)) return null;
  return seen.size;
}

/** The tag of the run's last line, which trec_eval prints as the runid. */
function lastRunTag(file: string, size: number): string {
  for (let window = 4096; ; window *= 4) {
    const start = Math.max(0, size - window);
    const lines = new TextDecoder().decode(readRange(file, start, size)).split("\n");
    // The first line of a window that does not start the file may be cut.
    for (let i = lines.length - 1; i >= (start > 0 ? 1 : 0); i--) {
      const fields = lines[i].trim().split(/\s+/);
      if (fields[0] !== "") return fields[5] ?? "";
    }
    if (start === 0) return "";
  }
}
