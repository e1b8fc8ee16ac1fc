/**
 * The expert's save queue, as pure functions over plain data: the grading page keeps the queue in
 * `localStorage` (per expert and assignment) so that a grade chosen while the network is down survives
 * a reload and lands later. One entry per card: a newer save of the same card replaces the older one.
 */

/** One grade waiting to land on the server. */
export type QueuedSave = {
  item: number;
  grade: "1" | "2" | "3" | "4" | "cant";
  rationale: string;
  position: number;
  /** Time spent on the card that the server has not counted yet (the server adds it to its total). */
  timeSpentMs: number;
  /** Grows with every change of the entry, so an answer to an older send cannot remove a newer change. */
  version: number;
  attempts: number;
  /** Epoch milliseconds before which the entry is not sent again. */
  nextAt: number;
};

export type SaveQueue = QueuedSave[];

/** What the page asks to save. */
export type SaveRequest = Pick<QueuedSave, "item" | "grade" | "rationale" | "position" | "timeSpentMs">;

const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/** Delay before the next attempt after `attempts` failures: 1 s, 2 s, 4 s … capped at 30 s. */
export function backoffMs(attempts: number): number {
  if (attempts <= 0) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempts - 1));
}

/** The `localStorage` key of one expert's queue for one assignment. */
export function queueKey(expertId: number, assignmentId: number): string {
  return `assay:grade-queue:${expertId}:${assignmentId}`;
}

/**
 * Adds a save, merging it with a queued save of the same card: the newest grade and rationale win and
 * the uncounted time adds up (each part of it was spent). The merged entry is due at once.
 */
export function enqueue(queue: SaveQueue, save: SaveRequest, now: number): SaveQueue {
  const old = queue.find((q) => q.item === save.item);
  if (!old) return [...queue, { ...save, version: 1, attempts: 0, nextAt: now }];
  const merged: QueuedSave = {
    ...save,
    timeSpentMs: old.timeSpentMs + save.timeSpentMs,
    version: old.version + 1,
    attempts: 0,
    nextAt: now,
  };
  return queue.map((q) => (q === old ? merged : q));
}

/** The entry to send next: the first one that is due, or null (then `nextDueAt` says when to look again). */
export function nextDue(queue: SaveQueue, now: number): QueuedSave | null {
  return queue.find((q) => q.nextAt <= now) ?? null;
}

/** When the earliest waiting entry becomes due, or null for an empty queue. */
export function nextDueAt(queue: SaveQueue): number | null {
  return queue.length === 0 ? null : Math.min(...queue.map((q) => q.nextAt));
}

/**
 * The server stored `sent`. The entry leaves the queue unless it changed while the request was under
 * way; then it stays with the time that just landed taken off, so that time is not counted twice.
 */
export function landed(queue: SaveQueue, sent: QueuedSave): SaveQueue {
  return queue.flatMap((q) => {
    if (q.item !== sent.item) return [q];
    if (q.version === sent.version) return [];
    return [{ ...q, timeSpentMs: Math.max(0, q.timeSpentMs - sent.timeSpentMs) }];
  });
}

/**
 * `sent` did not land (offline, 5xx, timeout): it waits `backoffMs` before the next try. When the
 * request may have reached the server anyway (`uncertain`: a timeout), its time is dropped, since the
 * server adds time on every save; the grade itself is an upsert, so resending it changes nothing twice.
 */
export function failed(queue: SaveQueue, sent: QueuedSave, now: number, uncertain: boolean): SaveQueue {
  return queue.map((q) => {
    if (q.item !== sent.item) return q;
    const attempts = q.attempts + 1;
    const timeSpentMs = uncertain ? Math.max(0, q.timeSpentMs - sent.timeSpentMs) : q.timeSpentMs;
    return { ...q, attempts, timeSpentMs, nextAt: now + backoffMs(attempts) };
  });
}

/** The server refused `sent` for good (a 4xx with a reason): it leaves the queue unless changed since. */
export function refused(queue: SaveQueue, sent: QueuedSave): SaveQueue {
  return queue.filter((q) => q.item !== sent.item || q.version !== sent.version);
}

/** Every entry due now (the connection came back: no reason to wait out the backoff). */
export function retryNow(queue: SaveQueue, now: number): SaveQueue {
  return queue.map((q) => ({ ...q, nextAt: Math.min(q.nextAt, now) }));
}

const GRADES = new Set(["1", "2", "3", "4", "cant"]);

/** Reads a stored queue, dropping anything that is not a well-formed entry (an old or edited value). */
export function parseQueue(raw: string | null): SaveQueue {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (q): q is QueuedSave =>
        typeof q === "object" &&
        q !== null &&
        Number.isInteger(q.item) &&
        GRADES.has(q.grade) &&
        typeof q.rationale === "string" &&
        Number.isInteger(q.position) &&
        Number.isFinite(q.timeSpentMs) &&
        Number.isInteger(q.version) &&
        Number.isInteger(q.attempts) &&
        Number.isFinite(q.nextAt),
    );
  } catch {
    return [];
  }
}
