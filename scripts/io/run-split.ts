import fs from "node:fs";
import { readRange } from "./read-range";

/** How far around a guess to look before reading a whole file. */
const WINDOW = 1024 * 1024;

/** The offset of the first line after the middle of a run whose query differs from the line before; 0 if none. */
export function splitAtQuery(file: string, size: number): number {
  const from = size >> 1;
  for (let window = WINDOW; ; window *= 4) {
    const text = latin1(readRange(file, from, Math.min(size, from + window)));
    let lineStart = text.indexOf("\n") + 1;
    if (lineStart <= 0) return 0;
    let previous = qidAt(text, lineStart);
    for (;;) {
      const next = text.indexOf("\n", lineStart) + 1;
      if (next <= 0 || next >= text.length) break;
      const qid = qidAt(text, next);
      if (qid !== previous) return from + next;
      previous = qid;
      lineStart = next;
    }
    // One query's lines fill the window: look further, unless the file ends there.
    if (from + window >= size) return 0;
  }
}

/** The query id of the line starting at `offset`. */
export function firstQidAt(file: string, offset: number): string {
  return qidAt(latin1(readRange(file, offset, offset + 1024)), 0);
}

/**
 * Where `qid`'s first judgement line starts in a qrels file; null when it has none. Qrels grouped
 * in the run's order have it about as far in as the run has the query (`near`), so that stretch is
 * read first and the whole file only when it does not show where the query's lines begin.
 */
export function qrelsOffsetOf(file: string, qid: string, near: number, window = WINDOW): number | null {
  const from = Math.max(0, near - window);
  const text = latin1(readRange(file, from, near + window));
  const at = firstLineOf(text, qid, from === 0);
  if (at !== null) {
    // The line before, if the stretch holds it whole, must be another query's for this one to be the first.
    const previous = text.lastIndexOf("\n", at - 2) + 1;
    if (at === 0 || ((previous > 0 || from === 0) && qidAt(text, previous) !== qid)) return from + at;
  }
  return firstLineOf(latin1(fs.readFileSync(file)), qid, true);
}

/** The first line of `text` that is one of `qid`'s; a line cut off by the start of `text` does not count unless `atStart`. */
function firstLineOf(text: string, qid: string, atStart: boolean): number | null {
  if (atStart && qidAt(text, 0) === qid) return 0;
  const found = [" ", "\t"].map((separator) => text.indexOf(`\n${qid}${separator}`)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) + 1 : null;
}

function qidAt(text: string, at: number): string {
  return /^\S*/.exec(text.slice(at, at + 1024))![0];
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}
