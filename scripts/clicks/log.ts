/**
 * A click log held for fitting large logs: one row of `maxRank` slots per session in typed arrays,
 * each (query, document) pair interned once in a `Vocabulary` shared by the train and test logs, so a
 * model's per-pair parameters are plain arrays indexed by pair.
 */

/** One result page as read from a file. */
export interface RawSession {
  id: string;
  query: string;
  results: string[];
  clicks: number[];
  /**
   * The search task (TCM, Zhang et al. 2011): sessions with the same `task` form one task, in file (=
   * time) order, wherever they stand; a session without one is a task of its own.
   */
  task?: string;
  /** When the session started (ms); orders a task's sessions when file order is not time order. */
  time?: number;
}

/** Interns queries and (query, document) pairs; shared by every log a model sees. */
export class Vocabulary {
  readonly queries: string[] = [];
  readonly pairQuery: number[] = [];
  readonly pairDoc: string[] = [];
  private readonly queryIndex = new Map<string, number>();
  private readonly pairIndex = new Map<string, number>();

  query(name: string): number {
    let q = this.queryIndex.get(name);
    if (q === undefined) {
      q = this.queries.length;
      this.queries.push(name);
      this.queryIndex.set(name, q);
    }
    return q;
  }

  pair(query: number, doc: string): number {
    const key = `${query}\u0000${doc}`;
    let p = this.pairIndex.get(key);
    if (p === undefined) {
      p = this.pairDoc.length;
      this.pairQuery.push(query);
      this.pairDoc.push(doc);
      this.pairIndex.set(key, p);
    }
    return p;
  }

  /** The pair's index, or -1 when it was never interned. */
  findPair(query: string, doc: string): number {
    const q = this.queryIndex.get(query);
    return q === undefined ? -1 : (this.pairIndex.get(`${q}\u0000${doc}`) ?? -1);
  }

  get pairCount(): number {
    return this.pairDoc.length;
  }
}

/** Sessions in file order; slot `s * maxRank + r` holds rank r (0-based) of session s. */
export interface ClickLog {
  size: number;
  maxRank: number;
  vocabulary: Vocabulary;
  ids: string[];
  query: Int32Array;
  /** Results shown (≤ maxRank). */
  length: Uint8Array;
  /** Pair index per slot, -1 past the session's length. */
  pair: Int32Array;
  click: Uint8Array;
  /** Task per session, interned per log in `taskIndex`; -1: a task of its own. */
  task: Int32Array;
  taskIndex: Map<string, number>;
  /** Start time per session, NaN when not given. */
  time: Float64Array;
}

/** An empty log of `capacity` sessions to be filled with `addSession`. */
export function emptyLog(vocabulary: Vocabulary, capacity: number, maxRank: number): ClickLog {
  return {
    size: 0,
    maxRank,
    vocabulary,
    ids: [],
    query: new Int32Array(capacity),
    length: new Uint8Array(capacity),
    pair: new Int32Array(capacity * maxRank).fill(-1),
    click: new Uint8Array(capacity * maxRank),
    task: new Int32Array(capacity).fill(-1),
    taskIndex: new Map(),
    time: new Float64Array(capacity).fill(NaN),
  };
}

/** Appends one session, keeping its first `maxRank` results; the arrays grow as needed. */
export function addSession(log: ClickLog, session: RawSession): void {
  if (log.size === log.query.length) growLog(log, Math.max(16, log.size * 2));
  const s = log.size++;
  const q = log.vocabulary.query(session.query);
  const n = Math.min(session.results.length, log.maxRank);
  log.ids.push(session.id);
  log.query[s] = q;
  log.length[s] = n;
  log.task[s] = session.task === undefined ? -1 : internTask(log, session.task);
  log.time[s] = session.time ?? NaN;
  for (let r = 0; r < n; r++) {
    log.pair[s * log.maxRank + r] = log.vocabulary.pair(q, session.results[r]);
    log.click[s * log.maxRank + r] = session.clicks[r] ? 1 : 0;
  }
}

function internTask(log: ClickLog, task: string): number {
  let t = log.taskIndex.get(task);
  if (t === undefined) log.taskIndex.set(task, (t = log.taskIndex.size));
  return t;
}

function growLog(log: ClickLog, capacity: number): void {
  const R = log.maxRank;
  const query = new Int32Array(capacity);
  const length = new Uint8Array(capacity);
  const pair = new Int32Array(capacity * R).fill(-1);
  const click = new Uint8Array(capacity * R);
  const task = new Int32Array(capacity).fill(-1);
  task.set(log.task);
  const time = new Float64Array(capacity).fill(NaN);
  time.set(log.time);
  query.set(log.query);
  length.set(log.length);
  pair.set(log.pair);
  click.set(log.click);
  Object.assign(log, { query, length, pair, click, task, time });
}

/** A log of the given sessions, interned into `vocabulary`. */
export function buildLog(sessions: RawSession[], vocabulary: Vocabulary, maxRank = 10): ClickLog {
  const log = emptyLog(vocabulary, sessions.length, maxRank);
  for (const session of sessions) addSession(log, session);
  return log;
}

/** The sessions `indices` of `log` as a log of their own (same vocabulary). */
export function subLog(log: ClickLog, indices: ArrayLike<number>): ClickLog {
  const R = log.maxRank;
  const out = emptyLog(log.vocabulary, indices.length, R);
  for (let i = 0; i < indices.length; i++) {
    const s = indices[i];
    out.ids.push(log.ids[s]);
    out.query[i] = log.query[s];
    out.length[i] = log.length[s];
    out.task[i] = log.task[s];
    out.time[i] = log.time[s];
    out.pair.set(log.pair.subarray(s * R, s * R + R), i * R);
    out.click.set(log.click.subarray(s * R, s * R + R), i * R);
  }
  out.size = indices.length;
  out.taskIndex = log.taskIndex;
  return out;
}

/** Rank of the last click, or `none` when the session has no click. */
export function lastClick(log: ClickLog, s: number, none: number): number {
  const base = s * log.maxRank;
  for (let r = log.length[s] - 1; r >= 0; r--) if (log.click[base + r]) return r;
  return none;
}

/** Rank of the first click, or the session's length when it has none. */
export function firstClick(log: ClickLog, s: number): number {
  const base = s * log.maxRank;
  const n = log.length[s];
  for (let r = 0; r < n; r++) if (log.click[base + r]) return r;
  return n;
}

/** Where each session stands in its task, within one log (CLICK-MODELS.md §8.1). */
export interface TaskStructure {
  /** 1 at slot `s * maxRank + r` when that document was shown in an earlier session of the task. */
  repeated: Uint8Array;
  /** 1 when the session is its task's last in this log. */
  last: Uint8Array;
}

const structures = new WeakMap<ClickLog, TaskStructure>();

/**
 * The task structure of `log`, computed once per log. A task's sessions are taken in time order where
 * every one has a time, else in file order (which JSONL logs promise is time order). "Repeated" is
 * shown before in the task, not examined before (PyClick's TCM and issue 13 define freshness so; Zhang
 * et al. say examined).
 */
export function taskStructure(log: ClickLog): TaskStructure {
  const cached = structures.get(log);
  if (cached && cached.last.length === log.size) return cached;
  const R = log.maxRank;
  const repeated = new Uint8Array(log.size * R);
  const last = new Uint8Array(log.size).fill(1);
  const tasks = new Map<number, number[]>();
  for (let s = 0; s < log.size; s++) {
    const t = log.task[s];
    if (t < 0) continue;
    const list = tasks.get(t);
    if (list) list.push(s);
    else tasks.set(t, [s]);
  }
  for (const sessions of tasks.values()) {
    if (sessions.length < 2) continue;
    if (sessions.every((s) => !Number.isNaN(log.time[s]))) sessions.sort((a, b) => log.time[a] - log.time[b]);
    const seen = new Set<string>();
    for (const s of sessions) {
      const docs: string[] = [];
      for (let r = 0; r < log.length[s]; r++) {
        const doc = log.vocabulary.pairDoc[log.pair[s * R + r]];
        if (seen.has(doc)) repeated[s * R + r] = 1;
        docs.push(doc);
      }
      for (const doc of docs) seen.add(doc);
      last[s] = 0;
    }
    last[sessions[sessions.length - 1]] = 1;
  }
  const structure = { repeated, last };
  structures.set(log, structure);
  return structure;
}
