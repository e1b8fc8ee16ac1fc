import { describe, expect, it } from "vitest";
import { validateEvent, type OnlineEvent } from "./events";
import { summarizeSession, UnitTotalsBuilder } from "./report";
import { conflictKey, guardrailUnits } from "./guardrail-sessions";

let id = 0;
/** An event of convener `unit`'s session `session` on proposal P1, `minute` minutes after 10:00. */
function ev(
  unit: string,
  arm: string,
  session: string,
  minute: number,
  type: OnlineEvent["type"],
  extra = {},
) {
  return {
    eventId: `e${++id}`,
    type,
    at: new Date(Date.parse("2026-11-02T10:00:00Z") + minute * 60_000).toISOString(),
    experiment: "x",
    arm,
    unitId: unit,
    sessionId: session,
    proposalId: "P1",
    ...extra,
  } as OnlineEvent;
}
const shown = { items: ["C1", "C2", "C3"] };

describe("the finish event", () => {
  it("is valid without a candidate or items, and other types still need theirs", () => {
    expect(validateEvent(ev("u", "A", "s", 0, "finish"))).toMatchObject({ ok: true });
    expect(validateEvent(ev("u", "A", "s", 0, "adopt"))).toMatchObject({
      ok: false,
      problems: ["a adopt needs candidateId"],
    });
  });

  it("gives a session its minutes from the first impression, and is no event about a candidate", () => {
    const list = [
      ev("u", "A", "s", 0, "impression", shown),
      ev("u", "A", "s", 2, "adopt", { candidateId: "C2" }),
      ev("u", "A", "s", 7.5, "finish"),
      ev("u", "A", "s", 9, "finish"),
    ];
    const times = list.map((e) => Date.parse(e.at));
    const s = summarizeSession(list, times);
    expect(s).toMatchObject({ minutesToFinish: 7.5, adopted: 1, adoptedIds: ["C2"], unshownEvents: 0 });
    // Without times (a caller that has none) or without a finish, there is no time to finish.
    expect(summarizeSession(list).minutesToFinish).toBeNull();
    expect(summarizeSession(list.slice(0, 2), times.slice(0, 2)).minutesToFinish).toBeNull();
  });
});

describe("guardrail sums per convener, by hand", () => {
  const events = [
    // u1 (A): finishes in 10 min with C1 (a conflict of P1) and C2 adopted, 3 profiles opened.
    ev("u1", "A", "s1", 0, "impression", shown),
    ev("u1", "A", "s1", 1, "click", { candidateId: "C1" }),
    ev("u1", "A", "s1", 2, "click", { candidateId: "C2" }),
    ev("u1", "A", "s1", 3, "click", { candidateId: "C3" }),
    ev("u1", "A", "s1", 4, "adopt", { candidateId: "C1" }),
    ev("u1", "A", "s1", 5, "adopt", { candidateId: "C2" }),
    ev("u1", "A", "s1", 10, "finish"),
    // u1's second session: finished after 4 min with an empty committee (adopt then unadopt).
    ev("u1", "A", "s2", 20, "impression", shown),
    ev("u1", "A", "s2", 21, "adopt", { candidateId: "C3" }),
    ev("u1", "A", "s2", 22, "unadopt", { candidateId: "C3" }),
    ev("u1", "A", "s2", 24, "finish"),
    // u2 (B): never finishes; one profile, one adoption.
    ev("u2", "B", "s3", 0, "impression", shown),
    ev("u2", "B", "s3", 1, "click", { candidateId: "C3" }),
    ev("u2", "B", "s3", 2, "adopt", { candidateId: "C3" }),
  ];

  it("counts conflicts, finishing minutes, empty committees and opens per adoption", () => {
    const builder = new UnitTotalsBuilder({ guardrails: { conflicts: new Set([conflictKey("P1", "C1")]) } });
    for (const e of events) builder.add(e);
    builder.build();
    expect(guardrailUnits(builder.guardrailSessions)).toEqual([
      {
        unit: "u1",
        arm: "A",
        sums: {
          coiShare: { m: 1, d: 2 },
          minutesToFinish: { m: 14, d: 2 },
          emptyCommitteeShare: { m: 1, d: 2 },
          profileOpensPerAdoption: { m: 3, d: 2 },
        },
      },
      {
        unit: "u2",
        arm: "B",
        sums: {
          coiShare: { m: 0, d: 1 },
          minutesToFinish: { m: 0, d: 0 },
          emptyCommitteeShare: { m: 0, d: 0 },
          profileOpensPerAdoption: { m: 1, d: 1 },
        },
      },
    ]);
  });

  it("leaves the COI share out when the conflicts are unknown", () => {
    const builder = new UnitTotalsBuilder({ guardrails: { conflicts: null } });
    for (const e of events) builder.add(e);
    builder.build();
    const units = guardrailUnits(builder.guardrailSessions);
    expect(units.every((u) => u.sums.coiShare === undefined)).toBe(true);
    expect(units[0].sums.minutesToFinish).toEqual({ m: 14, d: 2 });
  });

  it("keeps the decision metrics as they were: a finish changes no session's sums", () => {
    const withFinish = new UnitTotalsBuilder();
    const without = new UnitTotalsBuilder();
    for (const e of events) {
      withFinish.add(e);
      if (e.type !== "finish") without.add(e);
    }
    const a = withFinish.build();
    const b = without.build();
    expect(a.units).toEqual(b.units);
    expect(a.quality).toEqual(b.quality);
    expect(withFinish.guardrailSessions).toEqual([]);
  });
});
