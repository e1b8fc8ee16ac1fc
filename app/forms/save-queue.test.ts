import { describe, expect, it } from "vitest";
import {
  backoffMs,
  enqueue,
  failed,
  landed,
  nextDue,
  nextDueAt,
  parseQueue,
  queueKey,
  refused,
  retryNow,
  type SaveRequest,
} from "./save-queue";

const save = (item: number, grade: SaveRequest["grade"], timeSpentMs = 100): SaveRequest => ({
  item,
  grade,
  rationale: "",
  position: item,
  timeSpentMs,
});

describe("save queue", () => {
  it("backs off 1 s, 2 s, 4 s … and stops growing at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(backoffMs)).toEqual([
      0, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it("merges repeated saves of one card: the last grade wins and uncounted time adds up", () => {
    let q = enqueue([], save(7, "1"), 0);
    q = enqueue(q, save(8, "2"), 0);
    q = enqueue(q, save(7, "3", 50), 5);
    expect(q.map((e) => [e.item, e.grade, e.timeSpentMs, e.version])).toEqual([
      [7, "3", 150, 2],
      [8, "2", 100, 1],
    ]);
  });

  it("removes a landed save, but keeps a change made while it was under way, minus the time that landed", () => {
    const q = enqueue([], save(7, "1", 100), 0);
    const sent = q[0];
    expect(landed(q, sent)).toEqual([]);
    const changed = enqueue(q, save(7, "4", 30), 1);
    expect(landed(changed, sent)).toEqual([{ ...changed[0], timeSpentMs: 30 }]);
  });

  it("waits out the backoff after a failure and is due again afterwards; a reconnect makes it due at once", () => {
    let q = enqueue([], save(7, "2"), 0);
    const sent = q[0];
    q = failed(q, sent, 1000, false);
    q = failed(q, { ...sent }, 1000, false);
    expect(q[0].attempts).toBe(2);
    expect(nextDue(q, 2999)).toBeNull();
    expect(nextDueAt(q)).toBe(3000);
    expect(nextDue(q, 3000)?.item).toBe(7);
    expect(nextDue(retryNow(q, 1500), 1500)?.item).toBe(7);
    expect(q[0].timeSpentMs).toBe(100);
  });

  it("drops the time of a save that may have landed (a timeout), so a retry never counts it twice", () => {
    const q = enqueue([], save(7, "2", 100), 0);
    expect(failed(q, q[0], 0, true)[0].timeSpentMs).toBe(0);
  });

  it("forgets a refused save unless it changed since", () => {
    const q = enqueue([], save(7, "2"), 0);
    expect(refused(q, q[0])).toEqual([]);
    expect(refused(enqueue(q, save(7, "3"), 0), q[0])).toHaveLength(1);
  });

  it("reads back what it stored and ignores anything malformed", () => {
    const q = enqueue(enqueue([], save(1, "cant"), 0), save(2, "4"), 0);
    expect(parseQueue(JSON.stringify(q))).toEqual(q);
    expect(parseQueue("not json")).toEqual([]);
    expect(parseQueue('{"item":1}')).toEqual([]);
    expect(parseQueue(JSON.stringify([{ ...q[0], grade: "9" }, q[1]]))).toEqual([q[1]]);
    expect(queueKey(3, 12)).not.toBe(queueKey(4, 12));
  });
});
