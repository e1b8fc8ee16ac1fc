import {
  armClicks,
  committeeGrades,
  examinationCurve,
  experimentClicks,
  MIN_CLICK_SESSIONS,
} from "./experiment-report";
import type { RawSession } from "./log";

const settings = { seed: "s", testShare: 0.25, iterations: 50, maxRank: 3, B: 200 };
const session = (id: string, query: string, results: string[], clicks: number[]): RawSession => ({
  id,
  query,
  results,
  clicks,
});

it("takes rank 1 as always looked at: the curve is PBM's γ over γ₁", () => {
  expect(examinationCurve([0.8, 0.4, 0.2])).toEqual([
    { rank: 1, fitted: 0.8, relative: 1 },
    { rank: 2, fitted: 0.4, relative: 0.5 },
    { rank: 3, fitted: 0.2, relative: 0.25 },
  ]);
});

it("weights each click by 1 / examination at its rank, per arm, over the first maxRank results", () => {
  const sessions = [
    session("1", "p", ["a", "b", "c", "d"], [1, 0, 1, 1]), // d is past maxRank = 3: neither shown nor clicked here
    session("2", "p", ["b", "a"], [0, 1]),
    session("3", "p", ["a", "b", "c"], [0, 0, 0]),
  ];
  const rows = armClicks(
    {
      sessions,
      arms: ["A", "A", "B"],
      armSystems: [
        { arm: "A", system: "x" },
        { arm: "B", system: "y" },
      ],
      settings,
    },
    [1, 0.5, 0.25],
  );
  // A: 5 shown; clicks at ranks 1, 3 and 2 → raw 3/5, corrected (1 + 4 + 2)/5.
  expect(rows).toEqual([
    { arm: "A", sessions: 2, shown: 5, clicks: 3, ctr: 0.6, correctedCtr: 7 / 5 },
    {
      arm: "B",
      sessions: 1,
      shown: 3,
      clicks: 0,
      ctr: 0,
      correctedCtr: 0,
      // Without intervals asked for, the difference from the control (the first arm) has none.
      difference: { control: "A", ctr: -0.6, ctrCi: null, correctedCtr: -7 / 5, correctedCtrCi: null },
    },
  ]);
});

it("takes each arm's CTRs minus the control arm's, with an interval from resampling both arms' conveners", () => {
  const sessions = [
    session("1", "p", ["a", "b"], [1, 0]),
    session("2", "p", ["a", "b"], [0, 1]),
    session("3", "p", ["a", "b"], [0, 0]),
    session("4", "p", ["a", "b"], [1, 1]),
  ];
  const input = {
    sessions,
    arms: ["A", "A", "B", "B"],
    // B is the control, though listed second.
    armSystems: [
      { arm: "A", system: "x" },
      { arm: "B", system: "y", control: true },
    ],
    settings,
  };
  // One convener per arm: every resample is the same, so the interval is the difference itself.
  const [a, b] = armClicks({ ...input, units: ["u", "u", "v", "v"] }, [1, 0.5], { B: 200, seed: "s" });
  expect(b.difference).toBeUndefined();
  expect(a.difference).toEqual({
    control: "B",
    ctr: 2 / 4 - 2 / 4,
    ctrCi: { lower: 0, upper: 0 },
    correctedCtr: 3 / 4 - 3 / 4,
    correctedCtrCi: { lower: 0, upper: 0 },
  });
  // One convener a session: A's two conveners both have CTR ½, B's have 0 and 1, so B's resamples give
  // 0, ½ or 1 (a quarter, half, a quarter of the time) and A − B is +½, 0 or −½.
  const [spread] = armClicks({ ...input, units: ["u", "v", "w", "x"] }, [1, 0.5], { B: 2000, seed: "s" });
  expect(spread.difference!.ctr).toBe(0);
  expect(spread.difference!.ctrCi).toEqual({ lower: -0.5, upper: 0.5 });
});

it("gives each arm's CTRs an interval over its conveners: one convener, no spread", () => {
  const sessions = [
    session("1", "p", ["a", "b"], [1, 0]),
    session("2", "p", ["a", "b"], [0, 1]),
    session("3", "p", ["a", "b"], [0, 0]),
  ];
  const input = {
    sessions,
    arms: ["A", "A", "A"],
    armSystems: [{ arm: "A", system: "x" }],
    settings,
  };
  // Three sessions of one convener: every resample is that convener, so the interval is the figure.
  const [one] = armClicks({ ...input, units: ["u", "u", "u"] }, [1, 0.5], { B: 200, seed: "s" });
  expect(one.ctrCi).toEqual({ lower: 2 / 6, upper: 2 / 6 });
  expect(one.correctedCtrCi).toEqual({ lower: 3 / 6, upper: 3 / 6 });
  // Three conveners: the bounds are those of a convener drawn thrice (CTR ½, ½, 0; corrected ½, 1, 0).
  const [three] = armClicks({ ...input, units: ["u", "v", "w"] }, [1, 0.5], { B: 2000, seed: "s" });
  expect(three.ctrCi).toEqual({ lower: 0, upper: 0.5 });
  expect(three.correctedCtrCi).toEqual({ lower: 0, upper: 1 });
});

it("labels every candidate shown for a proposal with a committee: members 1, the rest 0; others unlabelled", () => {
  const grades = committeeGrades(
    [
      ["p", ["b"]],
      ["q", []],
    ],
    [session("1", "p", ["a", "b"], [0, 0]), session("2", "q", ["a"], [0]), session("3", "r", ["a"], [1])],
  );
  expect([...grades]).toEqual([
    [
      "p",
      new Map([
        ["a", 0],
        ["b", 1],
      ]),
    ],
  ]);
});

it("fits nothing below the minimum number of sessions", () => {
  const few = Array.from({ length: MIN_CLICK_SESSIONS - 1 }, (_, i) =>
    session(String(i), "p", ["a", "b"], [1, 0]),
  );
  const result = experimentClicks({
    experiment: { key: "k", name: "K" },
    settings,
    sessions: few,
    arms: few.map(() => "A"),
    units: few.map(() => "u"),
    armSystems: [{ arm: "A", system: "x" }],
    committees: [],
    offline: null,
  });
  expect(result).toEqual({
    experiment: { key: "k", name: "K" },
    settings,
    sessions: MIN_CLICK_SESSIONS - 1,
    minSessions: MIN_CLICK_SESSIONS,
    fit: null,
  });
});
