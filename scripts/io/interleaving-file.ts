import fs from "node:fs";
import { MessageChannel } from "node:worker_threads";
import { runWorker } from "../workers/run-worker";
import { lineStartFrom } from "./read-range";
import { mergeCreditTotals } from "../interleaving/credit";
import {
  creditOfText,
  resultFromCredit,
  type CreditOutcome,
  type InterleaveOptions,
  type InterleaveOutcome,
} from "../interleaving/index";
import type { CreditPart } from "./interleaving-worker";

/** Files at least this large are read on two threads. */
const PARALLEL_BYTES = 16 * 1024 * 1024;

/** `assay interleave` on a JSONL file: its sessions' credit (`creditFromFile`), read as one result. */
export async function interleaveFromFile(
  file: string,
  options: InterleaveOptions & { threads?: number; parallelBytes?: number } = {},
): Promise<InterleaveOutcome> {
  const credit = await creditFromFile(file, options);
  return credit.ok ? resultFromCredit(credit.totals, options) : credit;
}

/**
 * The sessions' credit of a JSONL file, read once. A large file is split by unit over two threads
 * exactly as `assay online` splits one (metrics/online-files.ts): all of a unit's events, retried
 * duplicates included, land in one thread, so de-duplication and sessions are as on one thread.
 */
export async function creditFromFile(
  file: string,
  options: InterleaveOptions & { threads?: number; parallelBytes?: number } = {},
): Promise<CreditOutcome> {
  const size = fs.statSync(file).size;
  // The marginalised credit reads the whole log on one thread (it needs the systems before crediting).
  if ((options.threads ?? 2) < 2 || options.lists || size < (options.parallelBytes ?? PARALLEL_BYTES))
    return creditOfText(fs.readFileSync(file, "utf8"), options);
  const middle = lineStartFrom(file, size >> 1);
  const shared = new SharedArrayBuffer(size);
  const { port1, port2 } = new MessageChannel();
  const ranges = [
    [0, middle],
    [middle, size],
  ];
  const parts = await Promise.all(
    [port1, port2].map((sibling, part) =>
      runWorker<CreditPart>(
        new URL("./interleaving-worker.ts", import.meta.url),
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
  return { ok: true, totals: mergeCreditTotals(parts.map((p) => p.totals!)) };
}
