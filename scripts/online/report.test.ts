import fs from "node:fs";
import path from "node:path";
import { parseEventsJsonl, type OnlineEvent } from "./events";
import { isoTime, onlineReport } from "./report";

// Reference: test/fixtures/online-small, computed independently from DESIGN.md's definitions.
const dir = path.join(__dirname, "../../test/fixtures/online-small");
const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8"));
const { events, errors } = parseEventsJsonl(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));

describe("online metrics on online-small", () => {
  const report = onlineReport(events, { weights: { A: 0.5, B: 0.5 } });

  it("reads every event", () => {
    expect(errors).toEqual([]);
    expect(report.events).toBe(expected.events);
    expect(report.uniqueEvents).toBe(expected.uniqueEvents);
  });

  it.each(["A", "B"])("arm %s matches the reference", (arm) => {
    const want = expected.arms[arm];
    const got = report.arms[arm];
    for (const key of ["units", "sessions", "shown", "clicked", "adopted"])
      expect(got[key as keyof typeof got], key).toBe(want[key]);
    for (const key of ["ctr", "adoptionRate", "meanAdoptedRank", "sessionSuccessRate"]) {
      expect(Math.abs((got[key as keyof typeof got] as number) / want[key] - 1), key).toBeLessThan(1e-9);
    }
  });

  it("matches excluded units and SRM", () => {
    expect(report.excludedUnits).toBe(expected.excludedUnits);
    expect(report.srm!.units).toEqual(expected.srm.units);
    expect(Math.abs(report.srm!.pValue / expected.srm.pValue - 1)).toBeLessThan(1e-6);
  });

  it("gives seeded CIs over units and p-values for B vs A", () => {
    const withCi = onlineReport(events, {
      weights: { A: 0.5, B: 0.5 },
      control: "A",
      intervals: true,
      B: 300,
      seed: 3,
    });
    const ctr = withCi.comparisons.find((c) => c.metric === "ctr")!;
    expect(ctr.difference).toBeCloseTo(expected.arms.B.ctr - expected.arms.A.ctr, 12);
    expect(ctr.ci!.lower).toBeLessThan(ctr.difference!);
    expect(ctr.ci!.upper).toBeGreaterThan(ctr.difference!);
    expect(ctr.pValue).toBeGreaterThan(0);
    expect(
      onlineReport(events, { weights: { A: 0.5, B: 0.5 }, control: "A", intervals: true, B: 300, seed: 3 })
        .comparisons,
    ).toEqual(withCi.comparisons);
  });
});

describe("online rules, hand-worked", () => {
  const base = { experiment: "e", proposalId: "p" };
  const ev = (
    eventId: string,
    at: string,
    type: OnlineEvent["type"],
    unitId: string,
    arm: string,
    sessionId: string,
    extra: Partial<OnlineEvent> = {},
  ): OnlineEvent => ({
    ...base,
    eventId,
    at: `2026-01-01T00:00:${at}Z`,
    type,
    unitId,
    arm,
    sessionId,
    ...extra,
  });

  it("dedups, orders by time, applies unadopts, excludes multi-arm units and counts data-quality findings", () => {
    const events = [
      ev("2", "02", "adopt", "u1", "A", "s1", { candidateId: "c2" }),
      ev("1", "01", "impression", "u1", "A", "s1", { items: ["c1", "c2", "c3"] }),
      ev("1", "01", "impression", "u1", "A", "s1", { items: ["c1", "c2", "c3"] }), // retried duplicate
      ev("3", "03", "adopt", "u1", "A", "s1", { candidateId: "c3" }),
      ev("4", "04", "unadopt", "u1", "A", "s1", { candidateId: "c3" }),
      ev("5", "05", "click", "u1", "A", "s1", { candidateId: "zz" }), // never shown
      ev("6", "06", "impression", "u1", "A", "s1", { items: ["c4", "c1"] }), // reload: c4 ranks 1 in this later impression
      ev("7", "07", "adopt", "u1", "A", "s1", { candidateId: "c4" }),
      ev("8", "08", "click", "u2", "A", "s9", { candidateId: "c1" }), // session with no impression
      ev("9", "09", "impression", "u3", "A", "s3", { items: ["c1"] }),
      ev("10", "10", "impression", "u3", "B", "s4", { items: ["c1"] }), // u3 in two arms
    ];
    const report = onlineReport(events);
    expect(report.arms.A).toMatchObject({
      units: 1,
      sessions: 1,
      shown: 4,
      clicked: 0,
      adopted: 2,
      meanAdoptedRank: 1.5,
      sessionSuccessRate: 1,
    });
    expect(report.excludedUnits).toBe(1);
    expect(report.dataQuality).toEqual({
      duplicateEvents: 1,
      sessionsWithoutImpression: 1,
      eventsAboutUnshownCandidates: 1,
      eventsOfExcludedUnits: 2,
    });
  });

  it("keeps sessions of different units apart when they share a session id, and excludes a unit whose one session spans two arms", () => {
    const events = [
      ev("1", "01", "impression", "u1", "A", "s1", { items: ["c1", "c2"] }),
      ev("2", "02", "impression", "u2", "A", "s1", { items: ["c9", "c1"] }), // another unit's session with the same id
      ev("3", "03", "adopt", "u1", "A", "s1", { candidateId: "c2" }),
      ev("4", "04", "adopt", "u2", "A", "s1", { candidateId: "c1" }),
      ev("5", "05", "impression", "u3", "B", "s5", { items: ["c1"] }),
      ev("6", "06", "click", "u3", "A", "s5", { candidateId: "c1" }), // u3's session logged in two arms
    ];
    const report = onlineReport(events);
    expect(report.arms.A).toMatchObject({ units: 2, sessions: 2, shown: 4, adopted: 2, meanAdoptedRank: 2 });
    expect(report.arms.B).toBeUndefined();
    expect(report.excludedUnits).toBe(1);
    expect(report.dataQuality.eventsOfExcludedUnits).toBe(2);
  });

  it("rejects malformed event lines with their numbers", () => {
    const { errors } = parseEventsJsonl(
      [
        '{"eventId":"x","type":"click"}',
        "nope",
        '{"eventId":"y","type":"impression","at":"2026-01-01T00:00:00Z","experiment":"e","arm":"A","unitId":"u","sessionId":"s","proposalId":"p"}',
      ].join("\n"),
    );
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(errors[0].message).toMatch(/at is missing/);
    expect(errors[2].message).toBe("an impression needs items (the candidate ids in displayed order)");
  });
});

describe("isoTime", () => {
  it.each([
    "2026-11-01T07:30:05Z",
    "2026-11-01T07:30:05.123Z",
    "2024-02-29T23:59:59Z",
    "2026-11-01T07:30:05+02:00",
    "2026-02-30T00:00:00Z",
    "2026-1x-01T00:00:00Z",
  ])("%s reads as Date.parse does", (at) => {
    expect(Object.is(isoTime(at), Date.parse(at))).toBe(true);
  });
});
