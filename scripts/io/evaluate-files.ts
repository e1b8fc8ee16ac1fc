import fs from "node:fs";
import { inputName, isStreamedInput, readInput } from "./open-input";
import { runWorker } from "../workers/run-worker";
import {
  aggregationOf,
  evaluateQueries,
  type Evaluation,
  type MeasureColumn,
  type QueryInput,
} from "../eval/evaluate";
import { JudgementLookup } from "../eval/judgement-lookup";
import type { Measure } from "../eval/measures";
import { firstQidAt, qrelsOffsetOf, splitAtQuery } from "./run-split";
import { parseQrelsBytes, parseRun, runQueries, type ParsedQrels } from "../eval/trec";
import { evaluateRunRange } from "./trec-stream";

/** Runs at least this large are evaluated on two threads. */
const PARALLEL_BYTES = 32 * 1024 * 1024;

/**
 * Evaluates a TREC run file against a qrels file. A run grouped by query (the usual layout) is read
 * piece by piece, each list measured as soon as it is read; a large one is split at a query
 * boundary near its middle and each half evaluated on its own thread. Anything else (an ungrouped
 * run, Coverage@K, which needs every list) is parsed whole on one thread. Either file may be `-`
 * (standard input) or gzipped (`*.gz`): such a file is read whole through a stream (readInput), and a
 * streamed run is parsed whole on one thread.
 */
export async function evaluateRunFile(
  qrelsFile: string,
  runFile: string,
  measures: Measure[],
  options: {
    complete?: boolean;
    catalog?: ReadonlySet<string>;
    threads?: number;
    parallelBytes?: number;
  } = {},
): Promise<Evaluation> {
  const coverageDepth = Math.max(0, ...measures.filter((m) => m.kind === "Coverage").map((m) => m.k!));
  const streamed = isStreamedInput(runFile);
  const size = streamed ? 0 : fileSize(runFile);
  if (
    coverageDepth === 0 &&
    !isStreamedInput(qrelsFile) &&
    !streamed &&
    (options.threads ?? 2) > 1 &&
    size >= (options.parallelBytes ?? PARALLEL_BYTES)
  ) {
    const evaluation = await evaluateHalves(qrelsFile, runFile, size, measures, options.complete);
    if (evaluation) return evaluation;
    // A failed half (bad line), an ungrouped run or a query in both halves: one thread gives the exact message and order.
  }
  const qrels = parseQrelsBytes(await readInput(qrelsFile, "qrels"), inputName(qrelsFile));
  if (coverageDepth === 0 && !streamed) {
    const part = evaluateRunRange(runFile, 0, size, qrels, measures);
    if (part) return merge([part], measures, options.complete ? () => qrels : undefined);
  }
  const run = parseRun(
    streamed ? await readInput(runFile, "run") : fs.readFileSync(runFile),
    inputName(runFile),
  );
  return evaluateQueries(
    runQueries(run, qrels, { complete: options.complete, itemsDepth: coverageDepth || undefined }),
    measures,
    { catalog: options.catalog },
  );
}

async function evaluateHalves(
  qrelsFile: string,
  runFile: string,
  size: number,
  measures: Measure[],
  complete?: boolean,
): Promise<Evaluation | null> {
  const split = splitAtQuery(runFile, size);
  if (split <= 0) return null;
  // Qrels grouped in the run's query order (the usual layout) split at the same query, so each
  // thread parses only its half of them; any other order gives each thread all of them.
  const qrelsSize = fileSize(qrelsFile);
  const qrelsSplit = qrelsOffsetOf(
    qrelsFile,
    firstQidAt(runFile, split),
    Math.round((qrelsSize * split) / size),
  );
  const parts =
    qrelsSplit === null
      ? null
      : ([
          [0, qrelsSplit],
          [qrelsSplit, qrelsSize],
        ] as const);
  let halves = await Promise.all([
    runHalf(runFile, 0, split, qrelsFile, measures, parts?.[0]),
    runHalf(runFile, split, size, qrelsFile, measures, parts?.[1]),
  ]);
  if (parts && halves.every((h) => h.ok) && !qrelsPartsFit(halves as Required<HalfResult>[])) {
    halves = await Promise.all([
      runHalf(runFile, 0, split, qrelsFile, measures),
      runHalf(runFile, split, size, qrelsFile, measures),
    ]);
  }
  if (!halves.every((h) => h.ok)) return null;
  const second = new Set(halves[1].runQids);
  if (halves[0].runQids!.some((q) => second.has(q))) return null;
  return merge(
    halves as Required<HalfResult>[],
    measures,
    complete ? () => parseQrelsBytes(fs.readFileSync(qrelsFile), qrelsFile) : undefined,
  );
}

function fileSize(file: string) {
  return fs.statSync(file).size;
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

async function runHalf(
  runFile: string,
  start: number,
  end: number,
  qrelsFile: string,
  measures: Measure[],
  qrelsRange?: readonly [number, number],
): Promise<HalfResult> {
  const half = await runWorker<
    Omit<HalfResult, "runQids" | "qrelsQids" | "qids"> & {
      runQids?: string;
      qrelsQids?: string;
      qids?: string;
    }
  >(new URL("./trec-worker.ts", import.meta.url), {
    runFile,
    start,
    end,
    qrelsFile,
    qrelsRange,
    measures: measures.map((m) => m.name),
  });
  const ids = (joined?: string) => (joined ? joined.split("\n") : []);
  return { ...half, runQids: ids(half.runQids), qrelsQids: ids(half.qrelsQids), qids: ids(half.qids) };
}

/**
 * The parts' queries as one evaluation in qid order; with `completeQrels`, judged queries no part
 * lists are added with empty lists (trec_eval -c).
 */
function merge(
  parts: { qids: string[]; columns: Pick<MeasureColumn, "values" | "weights">[] }[],
  measures: Measure[],
  completeQrels?: () => ParsedQrels,
): Evaluation {
  if (completeQrels) {
    const present = new Set(parts.flatMap((p) => p.qids));
    const lookup = new JudgementLookup(completeQrels());
    const absent: QueryInput[] = [];
    lookup.qrels.qids.forEach((qid, q) => {
      if (!present.has(qid)) absent.push({ qid, ranked: new Float64Array(0), judged: lookup.judged(q) });
    });
    parts = [...parts, evaluateQueries(absent, measures)];
  }
  const qids = parts.flatMap((p) => p.qids);
  // Each part's lists come in file order, usually already qid order; otherwise, the order that sorts them.
  let order: number[] | null = null;
  for (let i = 1; i < qids.length && !order; i++) {
    if (qids[i - 1] > qids[i])
      order = Array.from(qids.keys()).sort((a, b) => (qids[a] < qids[b] ? -1 : qids[a] > qids[b] ? 1 : 0));
  }
  const inOrder = (array: Float64Array) => (order ? Float64Array.from(order, (i) => array[i]) : array);
  const columns = measures.map((measure, m): MeasureColumn => {
    const aggregation = aggregationOf(measure);
    const values = inOrder(concat(parts.map((p) => p.columns[m].values)));
    const weights =
      aggregation === "ratio" ? inOrder(concat(parts.map((p) => p.columns[m].weights!))) : undefined;
    return { measure, aggregation, values, weights };
  });
  return { qids: order ? order.map((i) => qids[i]) : qids, columns };
}

function concat(arrays: Float64Array[]): Float64Array {
  const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let offset = 0;
  for (const array of arrays) {
    out.set(array, offset);
    offset += array.length;
  }
  return out;
}
