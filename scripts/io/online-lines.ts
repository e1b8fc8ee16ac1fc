import type { StreamTotals } from "../online/report";
import type { MessagePort } from "node:worker_threads";

/** What each thread sends back: its bad lines (numbered from the start of the part they are in), its line count, its units' sums. */
export interface PartResult {
  errors: { part: number; line: number; message: string }[];
  lines: number;
  totals: StreamTotals | null;
}

const UNIT_KEY = Buffer.from('"unitId"');

/**
 * Calls `visit` for each non-blank line starting in [from, to) with the part (of `parts`) that owns
 * it: a hash of the line's unitId, found in the bytes (Buffer.indexOf) without decoding or parsing
 * the line. Lines whose unitId cannot be found that way (bad lines, unusual spacing) all go to
 * part 0, which parses them and reports what is wrong. Lines are numbered from 1 at `from`; returns
 * how many there were.
 */
export function linesByOwner(
  bytes: Buffer,
  from: number,
  to: number,
  parts: number,
  visit: (start: number, end: number, line: number, owner: number) => void,
): number {
  let start = from;
  let line = 0;
  let key = bytes.indexOf(UNIT_KEY, from);
  while (start < to) {
    let end = bytes.indexOf(10, start);
    if (end < 0 || end > to) end = to;
    line++;
    const lineStart = start;
    start = end + 1;
    while (key >= 0 && key < lineStart) key = bytes.indexOf(UNIT_KEY, lineStart);
    let owner = 0;
    if (key >= 0 && key < end) {
      const unit = unitLiteral(bytes, key + UNIT_KEY.length, end);
      owner = unit === null ? 0 : hash(unit) % parts;
    } else if (isBlank(bytes, lineStart, end)) continue;
    visit(lineStart, end, line, owner);
  }
  return line;
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

/**
 * The exchange between the two threads of `assay online` and `assay interleave`: parses the lines of
 * this part's own units at once, sends the other thread where its lines are, parses the lines the other
 * thread found for this one (numbered in the part they are in), then calls `done` with this part's line count.
 */
export function parseOwnLines(
  bytes: Buffer,
  range: { from: number; to: number; part: number; sibling: MessagePort },
  parse: (start: number, end: number, line: number, origin: number) => void,
  done: (lines: number) => void,
) {
  const { from, to, part, sibling } = range;
  const handOver: number[] = [];
  const lines = linesByOwner(bytes, from, to, 2, (start, end, line, owner) => {
    if (owner === part) parse(start, end, line, part);
    else handOver.push(start, end, line);
  });
  // This half is in the shared memory before the other thread hears where its lines are.
  const offsets = Float64Array.from(handOver);
  sibling.postMessage({ part, offsets }, [offsets.buffer]);
  sibling.once("message", ({ part: origin, offsets: theirs }: { part: number; offsets: Float64Array }) => {
    for (let i = 0; i < theirs.length; i += 3) parse(theirs[i], theirs[i + 1], theirs[i + 2], origin);
    sibling.close();
    done(lines);
  });
}
