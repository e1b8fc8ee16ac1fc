import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { evaluateQueries } from "./evaluate";
import { parseMeasures } from "./measures";
import { readRange, readRangeAsync } from "./read-range";
import { parseQrelsBytes, parseRun, runQueries } from "./trec";

/**
 * One part of a large run: read its byte range, parse it, look up its labels and compute its
 * queries' measures. Each worker reads into its own memory (views into shared memory at an offset
 * made V8 fall off its fast path here).
 */
const { runFile, start, end, qrelsFile, qrelsRange, measures } = workerData as { runFile: string; start: number; end: number; qrelsFile: string; qrelsRange?: [number, number]; measures: string[] };

async function main() {
  // The run's bytes arrive on libuv's thread pool while this thread parses the qrels.
  const runBytes = readRangeAsync(runFile, start, end);
  // Its part of the qrels when they are grouped like the run (the caller checks that they were).
  const judgements = parseQrelsBytes(qrelsRange ? readRange(qrelsFile, qrelsRange[0], qrelsRange[1]) : fs.readFileSync(qrelsFile), qrelsFile);
  const parsed = parseRun(await runBytes, runFile);
  const evaluation = evaluateQueries(runQueries(parsed, judgements, { reuseScores: true }), parseMeasures(measures));
  const columns = evaluation.columns.map((c) => ({ values: c.values, weights: c.weights }));
  parentPort!.postMessage(
    { ok: true, runQids: parsed.qids, qrelsQids: judgements.qids, qids: evaluation.qids, columns },
    columns.flatMap((c) => [c.values.buffer as ArrayBuffer, ...(c.weights ? [c.weights.buffer as ArrayBuffer] : [])]),
  );
}

main().catch((error: Error) => parentPort!.postMessage({ ok: false, message: error.message }));
