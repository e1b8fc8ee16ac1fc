import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { linesOfPart } from "./online-files";
import { validateEvent, type OnlineEvent } from "./events";
import { unitTotals } from "./online";

/** One part of the units of an events file: parse and validate its lines, sum its units. */
const { file, part, parts } = workerData as { file: string; part: number; parts: number };
const bytes = fs.readFileSync(file);
const events: OnlineEvent[] = [];
const errors: { line: number; message: string }[] = [];
linesOfPart(bytes, part, parts, (raw, line) => {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    errors.push({ line, message: `is not valid JSON (${(error as Error).message})` });
    return;
  }
  const result = validateEvent(value);
  if (result.ok) events.push(result.event);
  else errors.push({ line, message: result.problems.join("; ") });
});
parentPort!.postMessage({ errors, totals: errors.length ? null : unitTotals(events) });
