import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { parseMeasures } from "../eval/measures";
import { readRange } from "./read-range";
import { parseQrelsBytes } from "../eval/trec";
import { evaluateRunRange } from "./trec-stream";

/** One part of a large run, evaluated on a thread of its own: its byte range and its part of the qrels. */
const { runFile, start, end, qrelsFile, qrelsRange, measures } = workerData as {
  runFile: string;
  start: number;
  end: number;
  qrelsFile: string;
  qrelsRange?: [number, number];
  measures: string[];
};

try {
  // Its part of the qrels when they are grouped like the run (the caller checks that they were).
  const judgements = parseQrelsBytes(
    qrelsRange ? readRange(qrelsFile, qrelsRange[0], qrelsRange[1]) : fs.readFileSync(qrelsFile),
    qrelsFile,
  );
  const part = evaluateRunRange(runFile, start, end, judgements, parseMeasures(measures));
  if (!part) parentPort!.postMessage({ ok: false, message: "not grouped by query" });
  else {
    const columns = part.columns.map((c) => ({ values: c.values, weights: c.weights }));
    parentPort!.postMessage(
      // Query ids joined into one string each (they hold no whitespace): one string crosses to the
      // main thread far faster than a hundred thousand.
      {
        ok: true,
        runQids: part.runQids.join("\n"),
        qrelsQids: judgements.qids.join("\n"),
        qids: part.qids.join("\n"),
        columns,
      },
      columns.flatMap((c) => [
        c.values.buffer as ArrayBuffer,
        ...(c.weights ? [c.weights.buffer as ArrayBuffer] : []),
      ]),
    );
  }
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message });
}
