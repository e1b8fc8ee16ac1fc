import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { CSRF_FIELD, useCsrfToken } from "~/security/csrf";
import { answerErrors, type FormAnswer } from "~/forms/forms";
import {
  enqueue,
  failed,
  landed,
  nextDue,
  nextDueAt,
  parseQueue,
  queueKey,
  refused,
  retryNow,
  type QueuedSave,
  type SaveQueue,
  type SaveRequest,
} from "~/forms/save-queue";

const ROUTE_ID = "routes/expert.assignments.$assignmentId";
const TIMEOUT_MS = 10_000;

/** How one send ended: stored, worth another try, or refused for good with the server's sentence. */
type Outcome =
  | { kind: "landed" }
  | { kind: "retry"; uncertain: boolean; reason: string }
  | { kind: "refused"; reason: string };

/** Posts one save to the task's action with `fetch`, so no failure of it can reach the route's ErrorBoundary. */
async function send(entry: QueuedSave, csrf: string): Promise<Outcome> {
  const body = new URLSearchParams({
    intent: "grade",
    item: String(entry.item),
    grade: entry.grade,
    rationale: entry.rationale,
    position: String(entry.position),
    timeSpentMs: String(Math.round(entry.timeSpentMs)),
    [CSRF_FIELD]: csrf,
  });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(`${window.location.pathname}?_data=${encodeURIComponent(ROUTE_ID)}`, {
      method: "POST",
      body,
      signal: abort.signal,
      credentials: "same-origin",
    });
    // Remix answers a redirect (the session ended) with 204 and this header: keep the grade and wait.
    if (response.headers.get("X-Remix-Redirect"))
      return { kind: "retry", uncertain: false, reason: "you are signed out; sign in again in another tab" };
    if (response.ok) return { kind: "landed" };
    // A refused save answers in the form shape (its field errors); a refused task, with a thrown { message }.
    const data = (await response.json().catch(() => null)) as (FormAnswer & { message?: string }) | null;
    const sentence = data?.message ?? (answerErrors(data).join("; ") || null);
    if (response.status >= 500 || response.status === 408 || response.status === 429)
      return { kind: "retry", uncertain: false, reason: `the server answered ${response.status}` };
    return {
      kind: "refused",
      reason: sentence ?? `the server answered ${response.status}`,
    };
  } catch {
    // An abort is our timeout: the request may have been stored. A TypeError means it never left.
    return abort.signal.aborted
      ? { kind: "retry", uncertain: true, reason: "no answer in 10 seconds" }
      : { kind: "retry", uncertain: false, reason: "no connection" };
  } finally {
    clearTimeout(timer);
  }
}

/** Per card: why its last save did not land (retrying) or was refused. */
export type SaveProblems = ReadonlyMap<number, { refused: boolean; reason: string }>;

/** When the browser is back online, every waiting save is due at once. */
function useRetryWhenOnline(
  update: (change: (q: SaveQueue) => SaveQueue) => void,
  setTick: Dispatch<SetStateAction<number>>,
) {
  useEffect(() => {
    const online = () => {
      update((q) => retryNow(q, Date.now()));
      setTick((t) => t + 1);
    };
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [update, setTick]);
}

/**
 * Runs the expert's save queue for one assignment: every save goes into `localStorage` first, then to
 * the server one at a time, retried with backoff (and at once when the browser is back online) until
 * it lands. A reload finds the queue where it was and resumes it.
 */
export function useSaveQueue(expertId: number, assignmentId: number) {
  const key = queueKey(expertId, assignmentId);
  const csrf = useCsrfToken();
  const [queue, setQueue] = useState<SaveQueue>([]);
  const [loaded, setLoaded] = useState(false);
  const [problems, setProblems] = useState<Map<number, { refused: boolean; reason: string }>>(new Map());
  const [inFlight, setInFlight] = useState<number | null>(null);
  const queueRef = useRef(queue);
  const busy = useRef(false);
  const [tick, setTick] = useState(0);

  // Every change of the queue is written to storage before anything is sent, so a reload loses nothing.
  const update = useCallback(
    (change: (q: SaveQueue) => SaveQueue) => {
      const next = change(queueRef.current);
      queueRef.current = next;
      try {
        if (next.length === 0) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or blocked: the queue still works for this page's life.
      }
      setQueue(next);
    },
    [key],
  );

  useEffect(() => {
    let stored: SaveQueue = [];
    try {
      stored = parseQueue(window.localStorage.getItem(key));
    } catch {
      stored = [];
    }
    queueRef.current = retryNow(stored, Date.now());
    setQueue(queueRef.current);
    setLoaded(true);
  }, [key]);

  useRetryWhenOnline(update, setTick);

  // The pump: sends the first due entry, records the outcome, and sets a timer for the next due one.
  useEffect(() => {
    if (!loaded || busy.current || !csrf) return;
    const now = Date.now();
    const entry = nextDue(queueRef.current, now);
    if (!entry) {
      const at = nextDueAt(queueRef.current);
      if (at === null) return;
      const timer = setTimeout(() => setTick((t) => t + 1), Math.max(0, at - now));
      return () => clearTimeout(timer);
    }
    busy.current = true;
    setInFlight(entry.item);
    void send(entry, csrf).then((outcome) => {
      busy.current = false;
      setInFlight(null);
      if (outcome.kind === "landed") update((q) => landed(q, entry));
      else if (outcome.kind === "refused") update((q) => refused(q, entry));
      else update((q) => failed(q, entry, Date.now(), outcome.uncertain));
      setProblems((m) => {
        const next = new Map(m);
        if (outcome.kind === "landed") next.delete(entry.item);
        else next.set(entry.item, { refused: outcome.kind === "refused", reason: outcome.reason });
        return next;
      });
      setTick((t) => t + 1);
    });
  }, [loaded, queue, tick, csrf, update]);

  const save = useCallback(
    (request: SaveRequest) => {
      update((q) => enqueue(q, request, Date.now()));
      setProblems((m) => {
        if (!m.get(request.item)?.refused) return m;
        const next = new Map(m);
        next.delete(request.item);
        return next;
      });
    },
    [update],
  );

  return { queue, loaded, problems: problems as SaveProblems, inFlight, save };
}
