import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { OnlineEvent } from "../online/events";
import { sessionCredits } from "./credit";
import { creditFromFile, interleaveFromFile } from "../io/interleaving-file";
import { interleaveText } from "./index";
import { interleavingResult, sessionOutcome, winRate } from "./results";

const F = path.resolve(__dirname, "../../test/fixtures/interleave-small");

let n = 0;
function ev(
  unit: string,
  session: string,
  minute: number,
  type: OnlineEvent["type"],
  rest: Partial<OnlineEvent> = {},
): OnlineEvent {
  const at = `2026-10-01T10:${String(minute).padStart(2, "0")}:00Z`;
  return {
    eventId: `e${++n}`,
    type,
    at,
    experiment: "x",
    arm: "I",
    unitId: unit,
    sessionId: session,
    proposalId: "p",
    ...rest,
  };
}
const imp = (unit: string, session: string, minute: number, items: string[], teams: string[]) =>
  ev(unit, session, minute, "impression", { items, teams });
const act = (unit: string, session: string, minute: number, type: OnlineEvent["type"], candidateId: string) =>
  ev(unit, session, minute, type, { candidateId });

describe("interleaving credit", () => {
  it("credits the team that placed a candidate in the first impression showing it, with the online set rules", () => {
    const click = act("u1", "s1", 3, "click", "b");
    const events = [
      // s1 (u1): first impression a→A, b→B, c→A; a second impression shows b as A's and d as B's:
      // b stays B's (first impression), d is B's.
      imp("u1", "s1", 1, ["a", "b", "c"], ["A", "B", "A"]),
      imp("u1", "s1", 2, ["b", "d"], ["A", "B"]),
      click, // click on b: B 1
      { ...click }, // the same event retried: counted once
      act("u1", "s1", 4, "click", "b"), // a repeated click on b: clicked(s) is a set, still B 1
      act("u1", "s1", 5, "click", "a"), // A 1
      act("u1", "s1", 6, "click", "d"), // B 2
      act("u1", "s1", 7, "click", "zz"), // never shown: no credit, one unshown event
      act("u1", "s1", 8, "adopt", "a"), // a adopted ...
      act("u1", "s1", 9, "unadopt", "a"), // ... then unadopted: not in adopted(s)
      act("u1", "s1", 10, "adopt", "c"), // adopt credit A 1
      ev("u1", "s1", 11, "finish"), // the convener finishes: no candidate, no credit, not "unshown"
      // s2 (u1): an unadopt that comes first in time, then the adopt: adopted at the end.
      imp("u1", "s2", 1, ["a", "b"], ["B", "A"]),
      act("u1", "s2", 5, "adopt", "b"),
      act("u1", "s2", 3, "unadopt", "b"),
      // s3 (u2): clicks without an impression: not a session.
      act("u2", "s3", 1, "click", "a"),
    ];
    const totals = sessionCredits(events);
    expect(totals.systems).toEqual(["A", "B"]);
    expect(totals.duplicateEvents).toBe(1);
    expect(totals.sessionsWithoutImpression).toBe(1);
    expect(totals.eventsAboutUnshownCandidates).toBe(1);
    expect(totals.sessions).toEqual([
      { unit: "u1", session: "s1", proposal: "p", click: { A: 1, B: 2 }, adopt: { A: 1 } },
      { unit: "u1", session: "s2", proposal: "p", click: {}, adopt: { A: 1 } },
    ]);
  });

  it("decides sessions and the win rate as DESIGN.md defines (worked by hand)", () => {
    expect(sessionOutcome({ A: 2, B: 1 }, "A", "B")).toEqual({ winner: "A" });
    expect(sessionOutcome({ B: 1 }, "A", "B")).toEqual({ winner: "B" });
    expect(sessionOutcome({ A: 1, B: 1 }, "A", "B")).toBe("tie");
    expect(sessionOutcome({}, "A", "B")).toBe("none");
    // Unit u1: A wins, B wins, tie; unit u2: B wins, B wins, no preference; unit u3: no preference.
    // wins_A = 1, wins_B = 3, ties = 1, noPreference = 2, sessions = 7.
    // win rate = (3 + 1/2) / (1 + 3 + 1) = 3.5 / 5 = 0.7.
    // p = binomtest(3, 4): P(X = 3) = P(X = 1) = 4/16 = P(observed); P(0) = P(4) = 1/16 are less likely;
    // P(2) = 6/16 is more likely, so p = (1 + 4 + 4 + 1) / 16 = 0.625.
    const s = (unit: string, click: Record<string, number>) => ({
      unit,
      session: `${unit}-${++n}`,
      click,
      adopt: {},
    });
    const sessions = [
      s("u1", { A: 1 }),
      s("u1", { B: 2 }),
      s("u1", { A: 1, B: 1 }),
      s("u2", { B: 1 }),
      s("u2", { B: 3, A: 1 }),
      s("u2", {}),
      s("u3", {}),
    ];
    const r = interleavingResult(sessions, { control: "A", challenger: "B", B: 500, seed: 3 });
    expect(r).toMatchObject({ sessions: 7, noPreference: 2, wins: { A: 1, B: 3 }, ties: 1, winRate: 0.7 });
    expect(r.pValue).toBeCloseTo(0.625, 12);
    // Resamples of units: u3 adds nothing; all-u2 gives 1, all-u1 gives 0.5, so the interval lies in [0.5, 1].
    expect(r.ci![0]).toBeGreaterThanOrEqual(0.5);
    expect(r.ci![1]).toBeLessThanOrEqual(1);
    expect(r.ci![0]).toBeLessThanOrEqual(0.7);
    expect(interleavingResult(sessions, { control: "A", challenger: "B", B: 500, seed: 3 }).ci).toEqual(r.ci);
    expect(winRate(0, 0, 0)).toBeNull();
    const none = interleavingResult([s("u1", {})], { control: "A", challenger: "B" });
    expect(none).toMatchObject({ sessions: 1, noPreference: 1, winRate: null, ci: null, pValue: null });
  });

  it("reproduces the interleave-small reference (computed in Python, p by scipy.stats.binomtest)", () => {
    const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));
    const text = fs.readFileSync(path.join(F, "events.jsonl"), "utf8");
    for (const credit of ["click", "adopt"] as const) {
      const out = interleaveText(text, { credit, control: expected.control, B: 200 });
      if (!out.ok || !("result" in out)) throw new Error("the reference events did not parse");
      const { pValue, ...rest } = expected[credit];
      expect(out.result).toMatchObject({
        ...rest,
        control: expected.control,
        challenger: expected.challenger,
      });
      expect(Math.abs(out.result.pValue! / pValue - 1)).toBeLessThan(1e-9);
      expect(out.result.ci![0]).toBeLessThan(out.result.winRate!);
      expect(out.result.ci![1]).toBeGreaterThan(out.result.winRate!);
    }
    // The default control is the first system by name: baseline here.
    const byDefault = interleaveText(text, { B: 50 });
    expect(byDefault.ok && "result" in byDefault && byDefault.result.control).toBe("baseline");
  });

  it("gives the same result on two threads as on one, and names bad lines by their line in the whole file", async () => {
    const file = path.join(F, "events.jsonl");
    const one = await interleaveFromFile(file, { threads: 1, B: 300, seed: 2 });
    const two = await interleaveFromFile(file, { parallelBytes: 0, B: 300, seed: 2 });
    expect(two).toEqual(one);
    // The sessions (the slices' input) carry the same proposal on two threads as on one.
    const sessionsOf = async (options: { threads?: number; parallelBytes?: number }) => {
      const credit = await creditFromFile(file, options);
      if (!credit.ok) throw new Error("the fixture reads");
      const key = (s: { unit: string; session: string }) => `${s.unit} ${s.session}`;
      return credit.totals.sessions.sort((a, b) => (key(a) < key(b) ? -1 : 1));
    };
    const [oneThread, twoThreads] = [
      await sessionsOf({ threads: 1 }),
      await sessionsOf({ parallelBytes: 0 }),
    ];
    expect(twoThreads).toEqual(oneThread);
    expect(oneThread.every((s) => s.proposal.length > 0)).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "interleave-threads-"));
    const bad = path.join(dir, "bad.jsonl");
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    lines[700] = "{";
    fs.writeFileSync(bad, lines.join("\n"));
    expect(await interleaveFromFile(bad, { parallelBytes: 0 })).toMatchObject({
      ok: false,
      errors: [{ line: 701, message: expect.stringContaining("not valid JSON") }],
    });
  });

  it("names bad lines and refuses events that are not one comparison of two or more systems", () => {
    const line = (o: object) => JSON.stringify(o);
    const base = {
      experiment: "x",
      arm: "I",
      unitId: "u",
      sessionId: "s",
      proposalId: "p",
      at: "2026-10-01T10:00:00Z",
    };
    const good = line({ ...base, eventId: "1", type: "impression", items: ["a", "b"], teams: ["A", "B"] });
    const bad = interleaveText(
      [good, "", line({ ...base, eventId: "2", type: "impression", items: ["a"] }), "{"].join("\n"),
    );
    expect(bad).toMatchObject({
      ok: false,
      errors: [
        { line: 3, message: expect.stringContaining("needs teams") },
        { line: 4, message: expect.stringContaining("not valid JSON") },
      ],
    });
    const three = interleaveText(
      [good, line({ ...base, eventId: "2", type: "impression", items: ["c"], teams: ["C"] })].join("\n"),
    );
    // Three teams are a multileaved log: its preference matrix, not a refusal.
    expect(three).toMatchObject({ ok: true, multileaving: { systems: ["A", "B", "C"], sessions: 1 } });
    const one = interleaveText(
      line({ ...base, eventId: "1", type: "impression", items: ["a", "b"], teams: ["A", "A"] }),
    );
    expect(one).toMatchObject({ ok: false, problem: expect.stringContaining("name 1 (A)") });
    const two = interleaveText(
      [good, line({ ...base, eventId: "2", experiment: "y", type: "click", candidateId: "a" })].join("\n"),
    );
    expect(two).toMatchObject({ ok: false, problem: expect.stringContaining("2 experiments") });
    expect(interleaveText(good, { control: "Z" })).toMatchObject({
      ok: false,
      problem: expect.stringContaining("control Z"),
    });
  });
});
