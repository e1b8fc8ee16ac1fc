import fs from "node:fs";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { runWorker } from "../workers/run-worker";
import { mergeTotals, type SessionSums } from "../online/report";
import {
  decisionPlan,
  mergeSlices,
  type DecisionInputOptions,
  type DecisionInputs,
  type DecisionPlan,
} from "../online/decision-inputs";
import { isStreamedInput } from "./open-input";
import { lineStartFrom } from "./read-range";

/** Files at least this large are read on two threads (as plain `assay online` does). */
const PARALLEL_BYTES = 16 * 1024 * 1024;

/** What each thread tells the main thread once its lines are parsed. */
export interface DecisionScan {
  errors: { part: number; line: number; message: string }[];
  lines: number;
  starts: [string, number][];
  earliest: number;
}

/** A thread's inputs, for the plan it was sent. */
export type DecisionPart = DecisionInputs;

export type DecisionFileResult =
  | { ok: true; plan: DecisionPlan; inputs: DecisionInputs & { preSums: Map<string, SessionSums> | null } }
  | { ok: false; errors: { line: number; message: string }[] };

/** Whether `decisionInputsFromFile` can read the file (a plain file large enough to be worth two threads). */
export function readsOnTwoThreads(file: string, parallelBytes = PARALLEL_BYTES): boolean {
  if (isStreamedInput(file)) return false;
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile() && stat.size >= parallelBytes;
}

/**
 * The decision inputs of an events file on two threads, split by unit as plain `assay online` splits
 * them (online-files.ts): each thread parses its units' lines and reports each experiment's start; the
 * plan (analysed experiment, pre-period) is made here from both and sent back; each thread then builds
 * its units' totals, pre-period sums, slices and guardrail sessions, which are merged here. Bad lines are
 * numbered in the file; a plan that cannot be made throws decisionPlan's message.
 */
export async function decisionInputsFromFile(
  file: string,
  o: DecisionInputOptions & { experiment?: string; prePeriodDays: number | null },
): Promise<DecisionFileResult> {
  const size = fs.statSync(file).size;
  const middle = lineStartFrom(file, size >> 1);
  const shared = new SharedArrayBuffer(size);
  const { port1, port2 } = new MessageChannel();
  const controls = [new MessageChannel(), new MessageChannel()];
  const ranges = [
    [0, middle],
    [middle, size],
  ];
  const finished = [port1, port2].map((sibling, part) =>
    runWorker<DecisionPart | null>(
      new URL("./online-decide-worker.ts", import.meta.url),
      {
        file,
        shared,
        part,
        from: ranges[part][0],
        to: ranges[part][1],
        sibling,
        control: controls[part].port2,
        subjects: o.subjects ? [...o.subjects] : null,
        guardrails: o.guardrails
          ? { conflicts: o.guardrails.conflicts ? [...o.guardrails.conflicts] : null }
          : null,
      },
      [sibling, controls[part].port2],
    ),
  );
  // A thread that fails before it has scanned its lines rejects here instead of leaving a wait forever.
  const scans = await Promise.all(
    controls.map((c, part) =>
      Promise.race([
        firstMessage<DecisionScan>(c.port1),
        finished[part].then(() => Promise.reject(new Error("a reading thread ended before its scan"))),
      ]),
    ),
  );
  const errors = scans
    .flatMap((s) =>
      s.errors.map((e) => ({ line: e.line + (e.part === 1 ? scans[0].lines : 0), message: e.message })),
    )
    .sort((a, b) => a.line - b.line);
  let plan: DecisionPlan | null = null;
  try {
    if (errors.length === 0) plan = planOf(scans, o);
  } finally {
    // Each thread waits for a plan, or null to stop.
    for (const c of controls) {
      c.port1.postMessage(plan);
      c.port1.close();
    }
  }
  const parts = await Promise.all(finished);
  if (errors.length || !plan) return { ok: false, errors };
  return { ok: true, plan, inputs: mergeParts(parts as DecisionPart[]) };
}

function planOf(scans: DecisionScan[], o: { experiment?: string; prePeriodDays: number | null }) {
  const starts = new Map<string, number>();
  for (const scan of scans)
    for (const [experiment, t] of scan.starts) {
      const s = starts.get(experiment);
      if (s === undefined || t < s) starts.set(experiment, t);
    }
  return decisionPlan(starts, Math.min(...scans.map((s) => s.earliest)), o);
}

function mergeParts(parts: DecisionPart[]): DecisionInputs & { preSums: Map<string, SessionSums> | null } {
  const pre = parts[0].pre && parts.flatMap((p) => p.pre!);
  return {
    totals: mergeTotals(parts.map((p) => p.totals)),
    pre,
    preSums: pre && new Map(pre.map((u) => [u.unit, u])),
    slices: parts[0].slices && mergeSlices(parts.map((p) => p.slices!)),
    guardrailSessions: parts[0].guardrailSessions && parts.flatMap((p) => p.guardrailSessions!),
  };
}

function firstMessage<T>(port: MessagePort): Promise<T> {
  return new Promise((resolve) => port.once("message", resolve));
}
