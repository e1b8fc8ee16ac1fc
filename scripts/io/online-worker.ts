import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { UnitTotalsBuilder } from "../online/report";
import { parseOwnLines, type PartResult } from "./online-lines";
import { readInto } from "./read-range";
import { eventLineParser } from "./event-lines";

/**
 * One of two threads of `assay online`: reads its half of the file into the memory both share,
 * parses the lines of its own units there, sends the other thread where that one's lines are,
 * then parses the lines the other thread found for it.
 */
const { file, shared, part, from, to, sibling } = workerData as {
  file: string;
  shared: SharedArrayBuffer;
  part: number;
  from: number;
  to: number;
  sibling: MessagePort;
};
const bytes = Buffer.from(shared);
readInto(file, bytes, from, from, to);

// Each event goes into its session as soon as it is read, so the parsed objects do not pile up.
const totals = new UnitTotalsBuilder();
const errors: PartResult["errors"] = [];
const parse = eventLineParser(bytes, errors, (event) => totals.add(event));

parseOwnLines(bytes, { from, to, part, sibling }, parse, (lines) => {
  parentPort!.postMessage({
    errors,
    lines,
    totals: errors.length ? null : totals.build(),
  } satisfies PartResult);
});
