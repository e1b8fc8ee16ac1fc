import { gunzipSync } from "node:zlib";
import type { RawSession } from "./log";

/** A line that is not a session: the message names the file and line. */
export class ClickFormatError extends Error {}

/** The file's text, gunzipped when it starts with the gzip magic bytes. */
export function decodeLogBytes(bytes: Uint8Array): string {
  const gzip = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return Buffer.from(gzip ? gunzipSync(bytes) : bytes).toString("utf8");
}

/**
 * JSONL, one result page per line: `{"session","query","results":[…],"clicks":[0|1,…]}`, clicks as long
 * as results. Blank lines are skipped; the whole file is checked before anything is returned.
 */
export function parseJsonl(text: string, source = "log"): RawSession[] {
  const sessions: RawSession[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const where = `${source} line ${i + 1}`;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new ClickFormatError(`${where} is not JSON.`);
    }
    const o = row as Record<string, unknown>;
    if (!o || typeof o !== "object" || Array.isArray(o)) throw new ClickFormatError(`${where} is not a JSON object.`);
    const id = typeof o.session === "number" ? String(o.session) : o.session;
    const query = typeof o.query === "number" ? String(o.query) : o.query;
    if (typeof id !== "string" || !id) throw new ClickFormatError(`${where} has no "session" id.`);
    if (typeof query !== "string" || !query) throw new ClickFormatError(`${where} has no "query".`);
    const { results, clicks } = o;
    if (!Array.isArray(results) || !results.length || !results.every((d) => typeof d === "string" || typeof d === "number")) {
      throw new ClickFormatError(`${where}: "results" must be a non-empty list of document ids.`);
    }
    if (!Array.isArray(clicks) || !clicks.every((c) => c === 0 || c === 1 || c === true || c === false)) {
      throw new ClickFormatError(`${where}: "clicks" must be a list of 0 and 1.`);
    }
    if (clicks.length !== results.length) {
      throw new ClickFormatError(`${where}: ${clicks.length} clicks for ${results.length} results (one 0 or 1 per result).`);
    }
    sessions.push({ id, query, results: results.map(String), clicks: clicks.map((c) => (c === 1 || c === true ? 1 : 0)) });
  }
  return sessions;
}

/**
 * The Yandex relevance-prediction challenge's log (what PyClick's YandexRelPredChallengeParser reads),
 * tab-separated: a query line `SessionID TimePassed Q QueryID RegionID URL_1 …` starts a session; a click
 * line `SessionID TimePassed C URLID` marks the first result of the most recent query line with that
 * URL, if the session ids match.
 */
export function parseYandex(text: string, source = "log"): RawSession[] {
  const sessions: RawSession[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (!line.trim()) continue;
    const where = `${source} line ${i + 1}`;
    const f = line.split("\t");
    if (f[2] === "Q") {
      if (f.length < 6) throw new ClickFormatError(`${where}: a query line needs SessionID, TimePassed, Q, QueryID, RegionID and at least one URL.`);
      sessions.push({ id: f[0], query: f[3], results: f.slice(5), clicks: f.slice(5).map(() => 0) });
    } else if (f[2] === "C") {
      if (f.length !== 4) throw new ClickFormatError(`${where}: a click line has exactly 4 fields (SessionID, TimePassed, C, URLID).`);
      const last = sessions[sessions.length - 1];
      if (!last) throw new ClickFormatError(`${where}: a click before any query line.`);
      if (last.id !== f[0]) continue;
      const r = last.results.indexOf(f[3]);
      if (r >= 0) last.clicks[r] = 1;
    } else throw new ClickFormatError(`${where}: the third field must be Q (query) or C (click), not "${f[2] ?? ""}".`);
  }
  return sessions;
}

export type LogFormat = "jsonl" | "yandex";

export function parseLog(bytes: Uint8Array, format: LogFormat, source: string): RawSession[] {
  const text = decodeLogBytes(bytes);
  return format === "jsonl" ? parseJsonl(text, source) : parseYandex(text, source);
}

/** TREC qrels `qid iter docid grade` as query → document → grade. */
export function parseGrades(text: string, source = "qrels"): Map<string, Map<string, number>> {
  const grades = new Map<string, Map<string, number>>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const f = line.split(/\s+/);
    if (f.length !== 4 || !/^-?\d+$/.test(f[3])) throw new ClickFormatError(`${source} line ${i + 1}: expected "qid iter docid grade" with a whole-number grade.`);
    let q = grades.get(f[0]);
    if (!q) grades.set(f[0], (q = new Map()));
    q.set(f[2], Number(f[3]));
  });
  return grades;
}
