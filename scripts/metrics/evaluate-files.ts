import fs from "node:fs";
import { runWorker } from "../lib/worker";
import { aggregationOf, evaluateQueries, type Evaluation, type MeasureColumn, type QueryInput } from "./evaluate";
import { JudgementLookup } from "./judgement-lookup";
import type { Measure } from "./measures";
import { readRange } from "./read-range";
import { parseQrelsBytes, parseRun, runQueries, type ParsedQrels } from "./trec";
import { evaluateRunRange } from "./trec-stream";

/** Runs at least this large are evaluated on two threads. */
const PARALLEL_BYTES = 32 * 1024 * 1024;

/**
 * Evaluates a TREC run file against a qrels file. A run grouped by query (the usual layout) is read
 * piece by piece, each list measured as soon as it is read; a large one is split at a query
 * boundary near its middle and each half evaluated on its own thread. Anything else (an ungrouped
 * run, Coverage@K, which needs every list) is parsed whole on one thread.
 */
export async function evaluateRunFile(
  qrelsFile: string,
  runFile: string,
  measures: Measure[],
  options: { complete?: boolean; catalog?: ReadonlySet<string>; threads?: number; parallelBytes?: number } = {},
): Promise<Evaluation> {
  const coverageDepth = Math.max(0, ...measures.filter((m) => m.kind === "Coverage").map((m) => m.k!));
  const size = fileSize(runFile);
  if (coverageDepth === 0 && (options.threads ?? 2) > 1 && size >= (options.parallelBytes ?? PARALLEL_BYTES)) {
    const evaluation = await evaluateHalves(qrelsFile, runFile, size, measures, options.complete);
    if (evaluation) return evaluation;
    // A failed half (bad line), an ungrouped run or a query in both halves: one thread gives the exact message and order.
  }
  const qrels = parseQrelsBytes(fs.readFileSync(qrelsFile), qrelsFile);
  if (coverageDepth === 0) {
    const part = evaluateRunRange(runFile, 0, size, qrels, measures);
    if (part) return merge([part], measures, options.complete ? () => qrels : undefined);
  }
  const run = parseRun(fs.readFileSync(runFile), runFile);
  return evaluateQueries(runQueries(run, qrels, { complete: options.complete, itemsDepth: coverageDepth || undefined }), measures, { catalog: options.catalog });
}

async function evaluateHalves(qrelsFile: string, runFile: string, size: number, measures: Measure[], complete?: boolean): Promise<Evaluation | null> {
  const split = splitAtQuery(runFile, size);
  if (split <= 0) return null;
  // Qrels grouped in the run's query order (the usual layout) split at the same query, so each
  // thread parses only its half of them; any other order gives each thread all of them.
  const qrelsSize = fileSize(qrelsFile);
  const qrelsSplit = qrelsOffsetOf(qrelsFile, firstQidAt(runFile, split));
  const parts = qrelsSplit === null ? null : ([[0, qrelsSplit], [qrelsSplit, qrelsSize]] as const);
  let halves = await Promise.all([runHalf(runFile, 0, split, qrelsFile, measures, parts?.[0]), runHalf(runFile, split, size, qrelsFile, measures, parts?.[1])]);
  if (parts && halves.every((h) => h.ok) && !qrelsPartsFit(halves as Required<HalfResult>[])) {
    halves = await Promise.all([runHalf(runFile, 0, split, qrelsFile, measures), runHalf(runFile, split, size, qrelsFile, measures)]);
  }
  if (!halves.every((h) => h.ok)) return null;
  const second = new Set(halves[1].runQids);
  if (halves[0].runQids!.some((q) => second.has(q))) return null;
  return merge(halves as Required<HalfResult>[], measures, complete ? () => parseQrelsBytes(fs.readFileSync(qrelsFile), qrelsFile) : undefined);
}

function fileSize(file: string) {
  return fs.statSync(file).size;
}

/** The offset of the first line after the middle whose query differs from the line before; 0 if none. */
function splitAtQuery(file: string, size: number): number {
  const from = size >> 1;
  const window = readRange(file, from, Math.min(size, from + 4 * 1024 * 1024));
  const text = Buffer.from(window.buffer, window.byteOffset, window.byteLength).toString("latin1");
  let lineStart = text.indexOf("\n") + 1;
  if (lineStart <= 0) return 0;
  const qidOf = (at: number) => text.slice(at).match(/^\S*/)![0];
  let previous = qidOf(lineStart);
  for (;;) {
    const next = text.indexOf("\n", lineStart) + 1;
    if (next <= 0 || next >= text.length) return 0;
    const qid = qidOf(next);
    if (qid !== previous) return from + next;
    previous = qid;
    lineStart = next;
  }
}

/** The query id of the line starting at `offset`. */
function firstQidAt(file: string, offset: number): string {
  const head = readRange(file, offset, offset + 1024);
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString("latin1").match(/^\S*/)![0];
}

/** Where `qid`'s first judgement line starts in the qrels file; null when it has none. */
function qrelsOffsetOf(file: string, qid: string): number | null {
  const bytes = fs.readFileSync(file);
  const head = bytes.subarray(0, qid.length + 1).toString("latin1");
  if (head === `${qid} ` || head === `${qid}\t`) return 0;
  const found = [" ", "\t"].map((sep) => bytes.indexOf(`\n${qid}${sep}`, 0, "latin1")).filter((i) => i >= 0);
  return found.length ? Math.min(...found) + 1 : null;
}

/**
 * Split qrels are right only if no query is judged in both parts and each half's run queries are
 * judged (if at all) in its own part; otherwise the halves are redone with all the qrels.
 */
function qrelsPartsFit(halves: Required<HalfResult>[]): boolean {
  const [a, b] = halves.map((h) => new Set(h.qrelsQids));
  if (halves[0].qrelsQids.some((q) => b.has(q))) return false;
  return !halves[0].runQids.some((q) => b.has(q)) && !halves[1].runQids.some((q) => a.has(q));
}

interface HalfResult {
  ok: boolean;
  message?: string;
  runQids?: string[];
  qrelsQids?: string[];
  qids?: string[];
  columns?: { values: Float64Array; weights?: Float64Array }[];
}

function runHalf(runFile: string, start: number, end: number, qrelsFile: string, measures: Measure[], qrelsRange?: readonly [number, number]): Promise<HalfResult> {
  return runWorker<HalfResult>(new URL("./trec-worker.ts", import.meta.url), { runFile, start, end, qrelsFile, qrelsRange, measures: measures.map((m) => m.name) });
}

/**
 * The parts' queries as one evaluation in qid order; with `completeQrels`, judged queries no part
 * lists are added with empty lists (trec_eval -c).
 */
function merge(parts: { qids: string[]; columns: Pick<MeasureColumn, "values" | "weights">[] }[], measures: Measure[], completeQrels?: () => ParsedQrels): Evaluation {
  const entries: { qid: string; part: number; index: number }[] = [];
  parts.forEach((p, part) => p.qids.forEach((qid, index) => entries.push({ qid, part, index })));
  const sources = parts.map((p) => p.columns);
  if (completeQrels) {
    const present = new Set(entries.map((e) => e.qid));
    const lookup = new JudgementLookup(completeQrels());
    const absent: QueryInput[] = [];
    lookup.qrels.qids.forEach((qid, q) => {
      if (!present.has(qid)) absent.push({ qid, ranked: new Float64Array(0), judged: lookup.judged(q) });
    });
    const missing = evaluateQueries(absent, measures);
    missing.qids.forEach((qid, index) => entries.push({ qid, part: parts.length, index }));
    sources.push(missing.columns);
  }
  entries.sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
  const columns: MeasureColumn[] = measures.map((measure, m) => {
    const aggregation = aggregationOf(measure);
    const values = new Float64Array(entries.length);
    const weights = aggregation === "ratio" ? new Float64Array(entries.length) : undefined;
    entries.forEach((e, i) => {
      values[i] = sources[e.part][m].values[e.index];
      if (weights) weights[i] = sources[e.part][m].weights![e.index];
    });
    return { measure, aggregation, values, weights };
  });
  return { qids: entries.map((e) => e.qid), columns };
}
