import { eventTimeProblem } from "./event-time";
import { validateEvent } from "./events";

// What PostgreSQL 18 and Node 20's Date.parse do with each was checked by hand; see also
// db/experiments/experiments/events-validation.test.ts, which stores the good ones and compares the instants.
const bad: [string, RegExp][] = [
  ["2025-02-30T10:00:00Z", /not on the calendar: February 2025 has 28 days/],
  ["2025-02-29T10:00:00Z", /February 2025 has 28 days/],
  ["2100-02-29T10:00:00Z", /February 2100 has 28 days/],
  ["2025-04-31T10:00:00Z", /April 2025 has 30 days/],
  ["2025-01-00T10:00:00Z", /January 2025 has 31 days/],
  ["2025-13-01T10:00:00Z", /month 13; months run from 01 to 12/],
  ["2025-00-10T10:00:00Z", /month 00/],
  ["2025-01-01T24:00:01Z", /not a time of day/],
  ["2025-01-01T24:00:00.001Z", /not a time of day/],
  ["2025-01-01T25:00:00Z", /not a time of day/],
  ["2025-01-01T10:60:00Z", /not a time of day/],
  ["2016-12-31T23:59:60Z", /not a time of day/],
  ["2025-01-01T10:00:00", /has no UTC offset: end it with Z or ±hh:mm/],
  ["2025-01-01T10:00", /has no UTC offset/],
  ["1999-12-31T23:59:59Z", /in the year 1999; events must be dated 2000 to 2100/],
  ["2101-01-01T00:00:00Z", /in the year 2101/],
  ["2025-01-01T10:00:00+25:00", /UTC offset \+25:00; offsets run from -15:59 to \+15:59/],
  ["2025-01-01T10:00:00+16:00", /UTC offset \+16:00/],
  ["2025-01-01T10:00:00+05:60", /UTC offset \+05:60/],
  ["2025-01-01T10:00:00Z\u0000", /not an ISO 8601 time with a UTC offset/],
  ["2025-01-01T10:00:00Z garbage", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00zz", /not an ISO 8601 time/],
  ["2025-01-01t10:00:00z", /not an ISO 8601 time/],
  ["2025-01-01 10:00:00Z", /not an ISO 8601 time/],
  ["+002025-01-01T10:00:00Z", /not an ISO 8601 time/],
  ["2025-1-1T10:00:00Z", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00.Z", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00,5Z", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00+0530", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00+05", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00UTC", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00Z+01:00", /not an ISO 8601 time/],
  ["2025-01-01T10:00:00.1234567890Z", /not an ISO 8601 time/],
  ["٢٠٢٥-01-01T10:00:00Z", /not an ISO 8601 time/],
  ["", /not an ISO 8601 time/],
  ["1735725600000", /not an ISO 8601 time/],
];

const good = [
  "2025-03-01T10:00:00Z",
  "2025-03-01T10:00Z",
  "2024-02-29T23:59:59Z",
  "2000-02-29T00:00:00Z",
  "2000-01-01T00:00:00Z",
  "2100-12-31T23:59:59.999Z",
  "2025-01-01T24:00:00Z",
  "2025-12-31T24:00:00.000Z",
  "2025-01-01T24:00Z",
  "2025-03-01T11:00:00+01:00",
  "2025-03-01T04:30:00-05:30",
  "2025-03-01T10:00:00-00:00",
  "2025-03-01T23:45:00+15:59",
  "2025-03-01T10:00:00.5Z",
  "2025-03-01T10:00:00.123456Z",
  "2025-03-01T10:00:00.1234567+02:00",
  "2025-03-01T10:00:00.123456789Z",
];

describe("eventTimeProblem", () => {
  it.each(bad)("refuses %j with a reason", (at, reason) => {
    expect(eventTimeProblem(at)).toMatch(reason);
  });

  it.each(good)("accepts %j, a time JavaScript reads too", (at) => {
    expect(eventTimeProblem(at)).toBeNull();
    expect(Number.isNaN(Date.parse(at))).toBe(false);
  });

  it("reads 24:00 as the next day's midnight, as PostgreSQL does", () => {
    expect(new Date("2025-12-31T24:00:00Z").toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });
});

describe("validateEvent's strings", () => {
  const click = {
    eventId: "e-1",
    type: "click",
    at: "2025-03-01T10:00:00Z",
    experiment: "x",
    arm: "A",
    unitId: "u",
    sessionId: "s",
    proposalId: "p",
    candidateId: "c",
  };

  it.each(["eventId", "experiment", "arm", "unitId", "sessionId", "proposalId", "candidateId"])(
    "refuses a NUL or a lone surrogate in %s",
    (field) => {
      for (const [value, reason] of [
        ["a\u0000b", `${field} contains a NUL character`],
        ["sur-\ud800", `${field} contains a lone UTF-16 surrogate`],
        ["\udc00-sur", `${field} contains a lone UTF-16 surrogate`],
      ]) {
        const result = validateEvent({ ...click, [field]: value });
        expect(result.ok ? [] : result.problems.join("; ")).toContain(reason);
      }
    },
  );

  it("refuses a NUL or a lone surrogate among the items, naming the item", () => {
    const impression = { ...click, type: "impression", candidateId: undefined };
    expect(validateEvent({ ...impression, items: ["a", "b\u0000"] })).toEqual({
      ok: false,
      problems: ["item 2 of items contains a NUL character"],
    });
    expect(validateEvent({ ...impression, items: ["\udbff"] })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^item 1 of items contains a lone UTF-16 surrogate/)],
    });
    expect(validateEvent({ ...impression, items: ["😀", "a"] }).ok).toBe(true);
  });

  it("accepts a proper surrogate pair and 200 characters, refuses 201", () => {
    expect(validateEvent({ ...click, eventId: "pair-\ud83d\ude00" }).ok).toBe(true);
    expect(validateEvent({ ...click, unitId: "u".repeat(200) }).ok).toBe(true);
    expect(validateEvent({ ...click, unitId: "u".repeat(201) })).toEqual({
      ok: false,
      problems: ["unitId is longer than 200 characters"],
    });
  });
});
