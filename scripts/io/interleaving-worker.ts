import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { CreditBuilder, type CreditTotals } from "../interleaving/credit";
import { parseLine } from "../interleaving/parse";
import { parseOwnLines } from "./online-lines";
import { readInto } from "./read-range";

/** What each thread sends back: its bad lines (numbered from the start of the part they are in), its line count, its units' credit. */
export interface CreditPart {
  errors: { part: number; line: number; message: string }[];
  lines: number;
  totals: CreditTotals | null;
}

/**
 * One of two threads of `assay interleave`, as `assay online`'s (metrics/online-worker.ts): reads its
 * half of the file into the memory both share, parses the lines of its own units, sends the other
 * thread where that one's lines are, then parses the lines the other thread found for it.
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

const credit = new CreditBuilder();
const errors: CreditPart["errors"] = [];
function parse(start: number, end: number, line: number, origin: number) {
  const result = parseLine(bytes.toString("utf8", start, end));
  if (typeof result === "string") errors.push({ part: origin, line, message: result });
  else credit.add(result);
}

parseOwnLines(bytes, { from, to, part, sibling }, parse, (lines) => {
  parentPort!.postMessage({
    errors,
    lines,
    totals: errors.length ? null : credit.build(),
  } satisfies CreditPart);
});
