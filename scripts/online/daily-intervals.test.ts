import { describe, expect, it } from "vitest";
import { cumulativeDailyWithIntervals, type DailySession } from "./daily-intervals";
import { cumulativeDailyFromSessions } from "./report";

const session = (
  unit: string,
  arm: string,
  day: string,
  shown: number,
  clicked: number,
  adopted = 0,
  adoptedRankSum = 0,
): DailySession => ({ unit, arm, day, shown, clicked, adopted, adoptedRankSum });

describe("cumulativeDailyWithIntervals", () => {
  it("gives the same cumulative values as the series without intervals, day by day", () => {
    const sessions = [
      session("u1", "A", "2026-03-01", 10, 2, 1, 3),
      session("u2", "A", "2026-03-01", 8, 1),
      session("u3", "B", "2026-03-01", 5, 3, 2, 5),
      session("u1", "A", "2026-03-02", 6, 2, 1, 1),
      session("u4", "B", "2026-03-03", 9, 0),
    ];
    const withCi = cumulativeDailyWithIntervals(sessions);
    const plain = cumulativeDailyFromSessions(sessions);
    expect(withCi.map((d) => ({ day: d.day, arms: d.arms }))).toEqual(plain);
  });

  it("computes the delta-method interval over conveners: 2 and 4 clicks of 10 shown is 30% ± 1.96 × 10 pp", () => {
    const [day] = cumulativeDailyWithIntervals([
      session("u1", "A", "2026-03-01", 10, 2),
      session("u2", "A", "2026-03-01", 10, 4),
    ]);
    expect(day.arms.A.ctr).toBeCloseTo(0.3, 12);
    // Residuals −1 and +1; n/(n−1) · Σe² = 2 · 2 = 4; √4 / ΣX = 2 / 20 = 0.1.
    expect(day.ci.A.ctr!.lower).toBeCloseTo(0.3 - 1.959964 * 0.1, 5);
    expect(day.ci.A.ctr!.upper).toBeCloseTo(0.3 + 1.959964 * 0.1, 5);
  });

  it("gives bit-identical figures whatever order the sessions come in (the database sets none)", () => {
    // 200 conveners with uneven sums, so that the residuals' sum rounds differently in another order.
    const sessions: DailySession[] = [];
    let x = 7;
    const next = () => (x = (x * 48271) % 2147483647);
    for (let i = 0; i < 600; i++) {
      const shown = 5 + (next() % 40);
      const adopted = next() % 4;
      sessions.push(
        session(
          `u${next() % 200}`,
          i % 2 ? "A" : "B",
          `2026-03-0${1 + (i % 5)}`,
          shown,
          next() % shown,
          adopted,
          adopted * (1 + (next() % 9)),
        ),
      );
    }
    const reversed = [...sessions].reverse();
    const interleaved = sessions.filter((_, i) => i % 2).concat(sessions.filter((_, i) => i % 2 === 0));
    const figures = JSON.stringify(cumulativeDailyWithIntervals(sessions));
    expect(JSON.stringify(cumulativeDailyWithIntervals(reversed))).toBe(figures);
    expect(JSON.stringify(cumulativeDailyWithIntervals(interleaved))).toBe(figures);
  });

  it("resamples conveners, not sessions: a convener's sessions on several days count as one unit", () => {
    const split = cumulativeDailyWithIntervals([
      session("u1", "A", "2026-03-01", 5, 1),
      session("u1", "A", "2026-03-02", 5, 1),
      session("u2", "A", "2026-03-02", 10, 4),
    ]);
    const whole = cumulativeDailyWithIntervals([
      session("u1", "A", "2026-03-02", 10, 2),
      session("u2", "A", "2026-03-02", 10, 4),
    ]);
    expect(split.at(-1)!.ci.A.ctr).toEqual(whole[0].ci.A.ctr);
  });

  it("gives no interval with one convener or a metric without a denominator, and narrows as conveners join", () => {
    const days = cumulativeDailyWithIntervals([
      session("u1", "A", "2026-03-01", 10, 2),
      ...["u2", "u3"].map((u, i) => session(u, "A", "2026-03-02", 10, 3 + i)),
      ...Array.from({ length: 40 }, (_, i) => session(`v${i}`, "A", "2026-03-03", 10, 2 + (i % 3))),
    ]);
    expect(days[0].ci.A.ctr).toBeNull();
    expect(days[0].ci.A.meanAdoptedRank).toBeNull();
    const width = (d: (typeof days)[number]) => d.ci.A.ctr!.upper - d.ci.A.ctr!.lower;
    expect(width(days[2])).toBeLessThan(width(days[1]));
    for (const d of days.slice(1)) expect(d.ci.A.ctr!.lower).toBeLessThanOrEqual(d.arms.A.ctr!);
  });
});
