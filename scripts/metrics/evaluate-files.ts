import fs from "node:fs";
import { runWorker } from "../lib/worker";
import { aggregationOf, evaluateQueries, type Evaluation, type MeasureColumn } from "./evaluate";
import type { Measure } from "./measures";
import { readRange } from "./read-range";
import { parseQrelsBytes, parseRun, runQueries } from "./trec";

/** Files at least this large are evaluated on two threads. */
const PARALLEL_BYTES = 32 * 1024 * 1024;

/**
 * Evaluates a TREC run file against a qrels file. A large run grouped by query (the usual layout) is
 * split at a query boundary near its middle and each half parsed and evaluated on its own thread;
 * anything else (small files, ungrouped runs, Coverage@K, which needs every list) takes one thread.
 */
export async function evaluateRunFile(
  qrelsFile: string,
  runFile: string,
  measures: Measure[],
  options: { complete?: boolean; catalog?: ReadonlySet<string>; threads?: number; parallelBytes?: number } = {},
): Promise<Evaluation> {
  const coverageDepth = Math.max(0, ...measures.filter((m) => m.kind === "Coverage").map((m) => m.k!));
  const threads = options.threads ?? 2;
  const size = fileSize(runFile);
  if (threads > 1 && size >= (options.parallelBytes ?? PARALLEL_BYTES) && coverageDepth === 0) {
    const split = splitAtQuery(runFile, size);
    if (split > 0) {
      // Qrels grouped in the run's query order (the usual layout) split at the same query, so each
      // thread parses only its half of them; any other order gives each thread all of them.
      const qrelsSize = fileSize(qrelsFile);
      const qrelsSplit = qrelsOffsetOf(qrelsFile, firstQidAt(runFile, split));
      const parts = qrelsSplit === null ? null : ([[0, qrelsSplit], [qrelsSplit, qrelsSize]] as const);
      let halves = await Promise.all([runHalf(runFile, 0, split, qrelsFile, measures, parts?.[0]), runHalf(runFile, split, size, qrelsFile, measures, parts?.[1])]);
      if (parts && halves.every((h) => h.ok) && !qrelsPartsFit(halves as Required<HalfResult>[])) {
        halves = await Promise.all([runHalf(runFile, 0, split, qrelsFile, measures), runHalf(runFile, split, size, qrelsFile, measures)]);
      }
      const second = new Set(halves[1].runQids ?? []);
      if (halves.every((h) => h.ok) && !halves[0].runQids!.some((q) => second.has(q))) {
        return merge(halves as Required<HalfResult>[], measures, qrelsFile, options.complete);
      }
      // A failed half (bad line) or a query in both halves: redo on one thread for the exact message and order.
    }
  }
  const qrels = parseQrelsBytes(fs.readFileSync(qrelsFile), qrelsFile);
  const run = parseRun(fs.readFileSync(runFile), runFile);
  return evaluateQueries(runQueries(run, qrels, { complete: options.complete, itemsDepth: coverageDepth || undefined }), measures, { catalog: options.catalog });
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

function merge(halves: Required<HalfResult>[], measures: Measure[], qrelsFile: string, complete?: boolean): Evaluation {
  const entries: { qid: string; half: number; index: number }[] = [];
  halves.forEach((h, half) => h.qids.forEach((qid, index) => entries.push({ qid, half, index })));
  let missing: Evaluation | null = null;
  if (complete) {
    const present = new Set(entries.map((e) => e.qid));
    const qrels = parseQrelsBytes(fs.readFileSync(qrelsFile));
    const absent = qrels.qids.filter((q) => !present.has(q));
    missing = evaluateQueries(
      absent.map((qid) => ({ qid, ranked: new Float64Array(0), judged: judgedOf(qrels, qid) })),
      measures,
    );
    missing.qids.forEach((qid, index) => entries.push({ qid, half: 2, index }));
  }
  entries.sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
  const sources = [...halves.map((h) => h.columns), ...(missing ? [missing.columns] : [])];
  const columns: MeasureColumn[] = measures.map((measure, m) => {
    const aggregation = aggregationOf(measure);
    const values = new Float64Array(entries.length);
    const weights = aggregation === "ratio" ? new Float64Array(entries.length) : undefined;
    entries.forEach((e, i) => {
      values[i] = sources[e.half][m].values[e.index];
      if (weights) weights[i] = sources[e.half][m].weights![e.index];
    });
    return { measure, aggregation, values, weights };
  });
  return { qids: entries.map((e) => e.qid), columns };
}

function judgedOf(qrels: ReturnType<typeof parseQrelsBytes>, qid: string) {
  const q = qrels.qids.indexOf(qid);
  const out = new Float64Array(qrels.ranges[q + 1] - qrels.ranges[q]);
  for (let i = qrels.ranges[q]; i < qrels.ranges[q + 1]; i++) out[i - qrels.ranges[q]] = qrels.label[qrels.order[i]];
  return out.sort().reverse();
}
