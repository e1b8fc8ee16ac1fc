import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type { OnlineEvent } from "../online/events";
import { isoTime } from "../online/report";
import { decisionInputs, type DecisionPlan } from "../online/decision-inputs";
import { parseOwnLines } from "./online-lines";
import { readInto } from "./read-range";
import { eventLineParser } from "./event-lines";
import type { DecisionPart, DecisionScan } from "./online-decide-files";

/**
 * One of two threads of `assay online --cuped --slice … --experiment …`: like online-worker.ts it parses
 * the lines of its own units in the memory both threads share, then tells the main thread each
 * experiment's first event time. Which experiment is analysed (and so which events are history) is known
 * only once both threads have spoken, so the events wait here, parsed, until the plan comes back.
 */
const { file, shared, part, from, to, sibling, control, subjects, guardrails } = workerData as {
  file: string;
  shared: SharedArrayBuffer;
  part: number;
  from: number;
  to: number;
  sibling: MessagePort;
  control: MessagePort;
  subjects: [string, string][] | null;
  guardrails: { conflicts: string[] | null } | null;
};
const bytes = Buffer.from(shared);
readInto(file, bytes, from, from, to);

// Events by the part of the file their line is in, each in line order, so that reading part 0's then
// part 1's gives this thread's units' events in file order (first occurrences, session order).
const events: OnlineEvent[][] = [[], []];
const times: number[][] = [[], []];
const starts = new Map<string, number>();
let earliest = Infinity;
const errors: DecisionScan["errors"] = [];

const parse = eventLineParser(bytes, errors, (e, origin) => {
  const t = isoTime(e.at);
  events[origin].push(e);
  times[origin].push(t);
  if (t < earliest) earliest = t;
  const s = starts.get(e.experiment);
  if (s === undefined || t < s) starts.set(e.experiment, t);
});

parseOwnLines(bytes, { from, to, part, sibling }, parse, (lines) => {
  control.postMessage({ errors, lines, starts: [...starts], earliest } satisfies DecisionScan);
  control.once("message", (plan: DecisionPlan | null) => {
    control.close();
    if (plan === null) {
      parentPort!.postMessage(null);
      return;
    }
    const inputs = decisionInputs(events[0].concat(events[1]), times[0].concat(times[1]), plan, {
      subjects: subjects ? new Map(subjects) : null,
      ...(guardrails
        ? { guardrails: { conflicts: guardrails.conflicts && new Set(guardrails.conflicts) } }
        : {}),
    });
    parentPort!.postMessage(inputs satisfies DecisionPart);
  });
});
