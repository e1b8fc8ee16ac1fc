import fs from "node:fs";
import path from "node:path";
import { parseEventsJsonl } from "./events";
import { onlineReport, unitTotals } from "./report";
import { sequentialInterval } from "./sequential";

const events = parseEventsJsonl(
  fs.readFileSync(path.join(__dirname, "../../test/fixtures/online-small/events.jsonl"), "utf8"),
).events;

/** Delta-method variance of Σsuccessful/Σsessions over units, written out independently of online.ts. */
function successVariance(units: { sessions: number; successfulSessions: number }[]) {
  const n = units.length;
  const y = units.map((u) => u.successfulSessions);
  const x = units.map((u) => u.sessions);
  const my = y.reduce((a, b) => a + b, 0) / n;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const cov = (p: number[], q: number[], mp: number, mq: number) =>
    p.reduce((s, v, i) => s + (v - mp) * (q[i] - mq), 0) / (n - 1);
  return (
    (cov(y, y, my, my) / mx ** 2 -
      (2 * my * cov(y, x, my, mx)) / mx ** 3 +
      (my ** 2 * cov(x, x, mx, mx)) / mx ** 4) /
    n
  );
}

describe("online report with sequential intervals", () => {
  it("records the kind and N*, and gives the difference vs control GrowthBook's interval on delta-method variances", () => {
    const report = onlineReport(events, { intervals: true, intervalKind: "sequential", nStar: 200, B: 200 });
    expect(report.intervals).toBe("sequential");
    expect(report.nStar).toBe(200);
    const units = unitTotals(events).units;
    const a = units.filter((u) => u.arm === "A");
    const b = units.filter((u) => u.arm === "B");
    const c = report.comparisons.find((x) => x.metric === "sessionSuccessRate")!;
    const wanted = sequentialInterval(
      c.difference!,
      successVariance(a) + successVariance(b),
      a.length + b.length,
      { nStar: 200 },
    );
    expect(c.ci!.lower).toBeCloseTo(wanted.lower, 12);
    expect(c.ci!.upper).toBeCloseTo(wanted.upper, 12);
  });

  it("is wider than the fixed bootstrap interval for every metric and leaves the fixed report unmarked by default", () => {
    const sequential = onlineReport(events, { intervals: true, intervalKind: "sequential", B: 200 });
    const fixed = onlineReport(events, { intervals: true, B: 200 });
    expect(fixed.intervals).toBeUndefined();
    expect(onlineReport(events, { intervals: true, intervalKind: "fixed", B: 200 }).intervals).toBe("fixed");
    sequential.comparisons.forEach((s, i) => {
      const f = fixed.comparisons[i];
      expect(s.ci!.upper - s.ci!.lower).toBeGreaterThan(f.ci!.upper - f.ci!.lower);
      expect(s.liftCi!.upper - s.liftCi!.lower).toBeGreaterThan(f.liftCi!.upper - f.liftCi!.lower);
      expect(s.pValue).toBe(f.pValue);
    });
  });
});
