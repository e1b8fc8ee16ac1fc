import { parseEventsJsonl, validateEvent } from "../online/events";

const impression = {
  eventId: "e1",
  type: "impression",
  at: "2026-10-01T10:00:00Z",
  experiment: "x",
  arm: "I",
  unitId: "u",
  sessionId: "s",
  proposalId: "p",
  items: ["a", "b"],
};

describe("events with teams (interleaved impressions)", () => {
  it("accepts an impression with one non-empty team per item, and one without teams as before", () => {
    expect(validateEvent({ ...impression, teams: ["baseline", "challenger"] })).toMatchObject({
      ok: true,
      event: { teams: ["baseline", "challenger"] },
    });
    expect(validateEvent(impression).ok).toBe(true);
  });

  it("refuses teams of the wrong length, with a non-string or empty entry, or not a list", () => {
    const problems = (teams: unknown) => {
      const r = validateEvent({ ...impression, teams });
      return r.ok ? [] : r.problems;
    };
    expect(problems(["A"])).toEqual(["teams has 1 entry for 2 items (one team per item)"]);
    expect(problems(["A", "B", "A"])).toEqual(["teams has 3 entries for 2 items (one team per item)"]);
    expect(problems(["A", 2])).toEqual(["team 2 of teams must be a string"]);
    expect(problems(["", "B"])).toEqual(["team 1 of teams is empty"]);
    expect(problems("A,B")).toEqual(["teams must be a list of system keys, one per item"]);
    const click = validateEvent({
      ...impression,
      type: "click",
      items: undefined,
      candidateId: "a",
      teams: ["A"],
    });
    expect(click.ok ? [] : click.problems).toEqual([
      "teams needs items (the team of each displayed candidate)",
    ]);
  });

  it("names the line of a bad teams list in a file", () => {
    const text = [
      JSON.stringify({ ...impression, teams: ["A", "B"] }),
      JSON.stringify({ ...impression, eventId: "e2", teams: ["A"] }),
    ].join("\n");
    expect(parseEventsJsonl(text).errors).toEqual([
      { line: 2, message: "teams has 1 entry for 2 items (one team per item)" },
    ]);
  });
});
