import { gunzipSync } from "node:zlib";
import type { RawSession } from "../clicks/log";
import { gunzipSyncBounded } from "./gunzip";

/** A line that is not a session: the message names the file and line. */
export class ClickFormatError extends Error {}

/** The file's text, gunzipped (within the limits of gunzip.ts) when it starts with the gzip magic bytes. */
export function decodeLogBytes(bytes: Uint8Array, source = "log"): string {
  const gzip = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return Buffer.from(gzip ? gunzipSyncBounded(gunzipSync, bytes, source) : bytes).toString("utf8");
}

/**
 * JSONL, one result page per line: `{"session","query","results":[…],"clicks":[0|1,…]}`, clicks as long
 * as results, optionally `"task"` (a string: sessions with the same one form a search task, for TCM) and
 * `"time"` (a number or an ISO date: a task's sessions must then be in time order, since file order is
 * what the models read as time). Blank lines are skipped; the whole file is checked before anything is
 * returned.
 */
export function parseJsonl(text: string, source = "log"): RawSession[] {
  const sessions: RawSession[] = [];
  forEachJsonl(text, source, (session) => sessions.push(session));
  return sessions;
}

/** Each line of `text` without splitting the whole text at once (logs of millions of lines). */
function forEachLine(text: string, visit: (line: string, number: number) => void): void {
  let number = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    visit(text.slice(start, end), ++number);
    start = end + 1;
  }
}

/** `parseJsonl` handing each session to `visit` as it is read, so a large log need not be held twice. */
export function forEachJsonl(text: string, source: string, visit: (session: RawSession) => void): void {
  const taskTimes = new Map<string, { time: number; line: number }>();
  forEachLine(text, (raw, number) => {
    const line = raw.trim();
    if (!line) return;
    const where = `${source} line ${number}`;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new ClickFormatError(`${where} is not JSON.`);
    }
    const o = row as Record<string, unknown>;
    if (!o || typeof o !== "object" || Array.isArray(o))
      throw new ClickFormatError(`${where} is not a JSON object.`);
    const id = typeof o.session === "number" ? String(o.session) : o.session;
    const query = typeof o.query === "number" ? String(o.query) : o.query;
    if (typeof id !== "string" || !id) throw new ClickFormatError(`${where} has no "session" id.`);
    if (typeof query !== "string" || !query) throw new ClickFormatError(`${where} has no "query".`);
    const { results, clicks } = o;
    if (
      !Array.isArray(results) ||
      !results.length ||
      !results.every((d) => typeof d === "string" || typeof d === "number")
    ) {
      throw new ClickFormatError(`${where}: "results" must be a non-empty list of document ids.`);
    }
    if (!Array.isArray(clicks) || !clicks.every((c) => c === 0 || c === 1 || c === true || c === false)) {
      throw new ClickFormatError(`${where}: "clicks" must be a list of 0 and 1.`);
    }
    if (clicks.length !== results.length) {
      throw new ClickFormatError(
        `${where}: ${clicks.length} clicks for ${results.length} results (one 0 or 1 per result).`,
      );
    }
    const { task, time } = taskOf(o, where, number, taskTimes);
    visit({
      id,
      query,
      results: results.map(String),
      clicks: clicks.map((c) => (c === 1 || c === true ? 1 : 0)),
      ...(task === undefined ? {} : { task }),
      ...(time === undefined ? {} : { time }),
    });
  });
}

/** The line's `task` and `time`, checked: a non-empty string; a time not before the task's previous session's. */
function taskOf(
  o: Record<string, unknown>,
  where: string,
  line: number,
  taskTimes: Map<string, { time: number; line: number }>,
): { task?: string; time?: number } {
  const { task, time } = o;
  const at =
    time === undefined || time === null
      ? undefined
      : typeof time === "number"
        ? time
        : typeof time === "string"
          ? Date.parse(time)
          : NaN;
  if (at !== undefined && !Number.isFinite(at))
    throw new ClickFormatError(
      `${where}: "time" must be a number or an ISO date, not ${JSON.stringify(time)}.`,
    );
  if (task === undefined || task === null) return { time: at };
  if (typeof task !== "string" || !task)
    throw new ClickFormatError(
      `${where}: "task" must be a non-empty string (the task's id), not ${JSON.stringify(task)}.`,
    );
  if (at === undefined) return { task };
  const before = taskTimes.get(task);
  if (before && at < before.time)
    throw new ClickFormatError(
      `${where}: task "${task}" goes back in time (line ${before.line} is later); a task's sessions must be in time order.`,
    );
  taskTimes.set(task, { time: at, line });
  return { task, time: at };
}

/**
 * The Yandex relevance-prediction challenge's log (what PyClick's YandexRelPredChallengeParser reads),
 * tab-separated: a query line `SessionID TimePassed Q QueryID RegionID URL_1 …` starts a session; a click
 * line `SessionID TimePassed C URLID` marks the first result of the most recent query line with that
 * URL, if the session ids match.
 */
export function parseYandex(text: string, source = "log"): RawSession[] {
  const sessions: RawSession[] = [];
  forEachYandex(text, source, (session) => sessions.push(session));
  return sessions;
}

/** `parseYandex` handing each session to `visit` once its clicks are read (at the next query line). */
export function forEachYandex(text: string, source: string, visit: (session: RawSession) => void): void {
  let last: RawSession | undefined;
  forEachLine(text, (raw, number) => {
    const line = raw.replace(/\r$/, "");
    if (!line.trim()) return;
    const where = `${source} line ${number}`;
    const f = line.split("\t");
    if (f[2] === "Q") {
      if (f.length < 6)
        throw new ClickFormatError(
          `${where}: a query line needs SessionID, TimePassed, Q, QueryID, RegionID and at least one URL.`,
        );
      if (last) visit(last);
      last = { id: f[0], query: f[3], results: f.slice(5), clicks: f.slice(5).map(() => 0) };
    } else if (f[2] === "C") {
      if (f.length !== 4)
        throw new ClickFormatError(
          `${where}: a click line has exactly 4 fields (SessionID, TimePassed, C, URLID).`,
        );
      if (!last) throw new ClickFormatError(`${where}: a click before any query line.`);
      if (last.id !== f[0]) return;
      const r = last.results.indexOf(f[3]);
      if (r >= 0) last.clicks[r] = 1;
    } else
      throw new ClickFormatError(
        `${where}: the third field must be Q (query) or C (click), not "${f[2] ?? ""}".`,
      );
  });
  if (last) visit(last);
}

export type LogFormat = "jsonl" | "yandex";

export function parseLog(bytes: Uint8Array, format: LogFormat, source: string): RawSession[] {
  const sessions: RawSession[] = [];
  readLogInto(bytes, format, source, (session) => sessions.push(session));
  return sessions;
}

/** Reads a (possibly gzipped) log of either format, handing each session to `visit` in file order. */
export function readLogInto(
  bytes: Uint8Array,
  format: LogFormat,
  source: string,
  visit: (session: RawSession) => void,
): void {
  const text = decodeLogBytes(bytes, source);
  if (format === "jsonl") forEachJsonl(text, source, visit);
  else forEachYandex(text, source, visit);
}

/** TREC qrels `qid iter docid grade` as query → document → grade. */
export function parseGrades(text: string, source = "qrels"): Map<string, Map<string, number>> {
  const grades = new Map<string, Map<string, number>>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const f = line.split(/\s+/);
    if (f.length !== 4 || !/^-?\d+$/.test(f[3]))
      throw new ClickFormatError(
        `${source} line ${i + 1}: expected "qid iter docid grade" with a whole-number grade.`,
      );
    let q = grades.get(f[0]);
    if (!q) grades.set(f[0], (q = new Map()));
    q.set(f[2], Number(f[3]));
  });
  return grades;
}
