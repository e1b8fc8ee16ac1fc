import fs from "node:fs";
import { MessageChannel } from "node:worker_threads";
import { runWorker } from "../workers/run-worker";
import { parseEventsJsonl } from "../online/events";
import { mergeTotals, reportFromTotals, type OnlineOptions, type OnlineReport } from "../online/report";
import type { PartResult } from "./online-lines";
import { lineStartFrom } from "./read-range";

/** Files at least this large are read on two threads. */
const PARALLEL_BYTES = 16 * 1024 * 1024;

export type OnlineFileResult =
  { ok: true; report: OnlineReport } | { ok: false; errors: { line: number; message: string }[] };

/**
 * `assay online` on a JSONL file. A large file is read once into memory both threads share, each
 * thread reading and scanning one half. Events are split by unit: each thread parses the lines of its
 * own units in its half, hands the offsets of the other thread's lines over, then parses the lines it
 * was handed. All of a unit's events (retried duplicates included) land in one thread, so
 * de-duplication, the multiple-arm exclusion and sessions are exactly as on one thread.
 */
export async function onlineFromFile(
  file: string,
  options: OnlineOptions & { threads?: number; parallelBytes?: number } = {},
): Promise<OnlineFileResult> {
  const size = fs.statSync(file).size;
  if ((options.threads ?? 2) > 1 && size >= (options.parallelBytes ?? PARALLEL_BYTES)) {
    const middle = lineStartFrom(file, size >> 1);
    const shared = new SharedArrayBuffer(size);
    const { port1, port2 } = new MessageChannel();
    const ranges = [
      [0, middle],
      [middle, size],
    ];
    const parts = await Promise.all(
      [port1, port2].map((sibling, part) =>
        runWorker<PartResult>(
          new URL("./online-worker.ts", import.meta.url),
          { file, shared, part, from: ranges[part][0], to: ranges[part][1], sibling },
          [sibling],
        ),
      ),
    );
    // The second part's lines come after the first's.
    const errors = parts
      .flatMap((p) =>
        p.errors.map((e) => ({ line: e.line + (e.part === 1 ? parts[0].lines : 0), message: e.message })),
      )
      .sort((a, b) => a.line - b.line);
    if (errors.length) return { ok: false, errors };
    return { ok: true, report: reportFromTotals(mergeTotals(parts.map((p) => p.totals!)), options) };
  }
  const { events, errors } = parseEventsJsonl(fs.readFileSync(file, "utf8"));
  if (errors.length) return { ok: false, errors };
  const { onlineReport } = await import("../online/report");
  return { ok: true, report: onlineReport(events, options) };
}
