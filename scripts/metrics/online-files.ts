import fs from "node:fs";
import { runWorker } from "../lib/worker";
import { parseEventsJsonl } from "./events";
import { mergeTotals, reportFromTotals, type OnlineOptions, type OnlineReport, type StreamTotals } from "./online";

/** Files at least this large are read on two threads. */
const PARALLEL_BYTES = 16 * 1024 * 1024;

export type OnlineFileResult = { ok: true; report: OnlineReport } | { ok: false; errors: { line: number; message: string }[] };

/**
 * `assay online` on a JSONL file. A large file is split by unit over two threads: each reads every
 * line, finds its unitId with a plain text search, and parses and validates only the lines of its own
 * units. All of a unit's events (retried duplicates included) land in one thread, so de-duplication,
 * the multiple-arm exclusion and sessions are exactly as on one thread.
 */
export async function onlineFromFile(file: string, options: OnlineOptions & { threads?: number; parallelBytes?: number } = {}): Promise<OnlineFileResult> {
  const threads = options.threads ?? 2;
  if (threads > 1 && fs.statSync(file).size >= (options.parallelBytes ?? PARALLEL_BYTES)) {
    const parts = await Promise.all(
      Array.from({ length: threads }, (_, part) => runWorker<{ errors: { line: number; message: string }[]; totals: StreamTotals | null }>(new URL("./online-worker.ts", import.meta.url), { file, part, parts: threads })),
    );
    const errors = parts.flatMap((p) => p.errors).sort((a, b) => a.line - b.line);
    if (errors.length) return { ok: false, errors };
    return { ok: true, report: reportFromTotals(mergeTotals(parts.map((p) => p.totals!)), options) };
  }
  const { events, errors } = parseEventsJsonl(fs.readFileSync(file, "utf8"));
  if (errors.length) return { ok: false, errors };
  const { onlineReport } = await import("./online");
  return { ok: true, report: onlineReport(events, options) };
}

const UNIT_KEY = Buffer.from('"unitId"');

/**
 * Calls `visit` for the non-blank lines that belong to `part` of `parts`: the part is a hash of the
 * line's unitId, found in the bytes (Buffer.indexOf) without decoding or parsing the line; only the
 * lines of this part are decoded. Lines whose unitId cannot be found that way (bad lines, unusual
 * spacing) all go to part 0, which parses them and reports what is wrong.
 */
export function linesOfPart(bytes: Buffer, part: number, parts: number, visit: (raw: string, line: number) => void) {
  let start = 0;
  let line = 0;
  let key = bytes.indexOf(UNIT_KEY, 0);
  const n = bytes.length;
  while (start < n) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = n;
    line++;
    const lineStart = start;
    start = end + 1;
    while (key >= 0 && key < lineStart) key = bytes.indexOf(UNIT_KEY, lineStart);
    let owner = 0;
    if (key >= 0 && key < end) {
      const unit = unitLiteral(bytes, key + UNIT_KEY.length, end);
      owner = unit === null ? 0 : hash(unit) % parts;
    } else if (isBlank(bytes, lineStart, end)) continue;
    if (owner === part) visit(bytes.toString("utf8", lineStart, end), line);
  }
}

function isBlank(bytes: Buffer, from: number, to: number) {
  for (let i = from; i < to; i++) if (bytes[i] > 32) return false;
  return true;
}

/** The JSON string after `"unitId"` and its colon, unescaped, or null when it is not a plain string. */
function unitLiteral(bytes: Buffer, from: number, end: number): string | null {
  let i = from;
  while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
  if (bytes[i] !== 58 /* : */) return null;
  i++;
  while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
  if (bytes[i] !== 34 /* " */) return null;
  let j = i + 1;
  let escaped = false;
  while (j < end && bytes[j] !== 34) {
    if (bytes[j] === 92 /* \ */) {
      escaped = true;
      j++;
    }
    j++;
  }
  if (j >= end) return null;
  const raw = bytes.toString("utf8", i + 1, j);
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string; // one unit written with and without escapes is one unit
  } catch {
    return null;
  }
}

function hash(s: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
