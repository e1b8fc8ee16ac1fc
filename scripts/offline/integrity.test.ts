import { describe, expect, it } from "vitest";
import { createRng } from "../lib/random";
import { createResampler } from "../stats/stratified";
import { offlineReport, type OfflineInput } from "./report";
import { unpackOfflineInput, packOfflineInput } from "./pack";

// p1: gold {b}; list a x b y; x is conflicted with p1 (rank 2).
// p2: gold {c}; list c d; d is conflicted with p2 (rank 2).
// p3: gold {e}; list e f; undated, no conflict.
const input: OfflineInput = {
  proposals: [
    { id: "p1", subject: "s1", date: "2024-01-10" },
    { id: "p2", subject: "s1", date: "2024-06-01" },
    { id: "p3", subject: "s2", date: null },
  ],
  gold: new Map([
    ["p1", new Set(["b"])],
    ["p2", new Set(["c"])],
    ["p3", new Set(["e"])],
  ]),
  systems: [
    {
      key: "sys",
      name: "System",
      lists: new Map([
        ["p1", new Map([["default", ["a", "x", "b", "y"]]])],
        ["p2", new Map([["default", ["c", "d"]]])],
        ["p3", new Map([["default", ["e", "f"]]])],
      ]),
    },
  ],
  catalog: new Set(["a", "b", "c", "d", "e", "f", "x", "y"]),
  conflicts: new Map([
    ["p1", new Map([["x", "co-author"]])],
    ["p2", new Map([["d", "same department"]])],
  ]),
  // a's profile is dated after p1 (leak at rank 1); b's before p1; c's after p2 (rank 1); e has one but p3 has no date.
  profileDates: new Map([
    ["a", "2024-02-01"],
    ["b", "2023-12-01"],
    ["c", "2024-06-02"],
    ["e", "2030-01-01"],
  ]),
};

describe("conflicts of interest", () => {
  it("counts COI@K as the share of top-K slots held by conflicted candidates", () => {
    const report = offlineReport(input, { ks: [1, 2, 3], B: 200, seed: "coi" });
    const sys = report.systems[0].integrity;
    // K=1: slots 1+1+1, none conflicted. K=2: 2+2+2 slots, x and d → 2/6. K=3: 3+2+2 = 7 slots, 2 conflicted.
    expect(sys.conflicts).toEqual([
      { k: 1, slots: 3, conflicted: 0, share: 0 },
      { k: 2, slots: 6, conflicted: 2, share: 2 / 6 },
      { k: 3, slots: 7, conflicted: 2, share: 2 / 7 },
    ]);
    expect(sys.conflictedSlots).toEqual([
      { proposal: "p1", candidate: "x", rank: 2, reason: "co-author" },
      { proposal: "p2", candidate: "d", rank: 2, reason: "same department" },
    ]);
    expect(report.conflicts).toEqual({ declared: 2, overall: sys.conflicts });
    // p1 fails at Success@2 (b at rank 3); its failure case names x at rank 2.
    const report2 = offlineReport(input, { ks: [2], B: 200, seed: "coi", failureK: 2 });
    expect(report2.systems[0].failures).toEqual([
      {
        proposal: "p1",
        title: undefined,
        gold: ["b"],
        top: ["a", "x", "b", "y"],
        conflicted: [{ candidate: "x", rank: 2 }],
      },
    ]);
  });

  it("evaluates the lists without conflicted candidates, ranks closed up", () => {
    const plain = offlineReport(input, { ks: [2], B: 200, seed: "coi" }).systems[0].overall.measures;
    const excluded = offlineReport(input, { ks: [2], B: 200, seed: "coi", excludeConflicts: true });
    const m = excluded.systems[0].overall.measures;
    // Plain: p1 has b at rank 3 → Success@2 = 0; p2, p3 hit at rank 1 → 2/3, MRR@2 = 2/3.
    expect(plain["Success@2"].value).toBeCloseTo(2 / 3, 12);
    // Without x, b moves from rank 3 to rank 2: Success@2 = 1, RR@2 of p1 = 1/2 → MRR = (0.5 + 1 + 1) / 3.
    expect(m["Success@2"].value).toBe(1);
    expect(m["RR@2"].value).toBeCloseTo(2.5 / 3, 12);
    expect(excluded.parameters.excludeConflicts).toBe(true);
    // COI@K still describes the lists as returned, so the reader sees what was removed.
    expect(excluded.systems[0].integrity.conflicts[0].conflicted).toBe(2);
    expect(excluded.systems[0].failures).toEqual([]);
  });

  it("crosses to a worker and back with its conflicts and profile dates", () => {
    const back = unpackOfflineInput(packOfflineInput(input));
    expect(back.conflicts).toEqual(input.conflicts);
    expect(back.profileDates).toEqual(input.profileDates);
    expect(back.proposals[0].date).toBe("2024-01-10");
  });
});

describe("time window and leakage", () => {
  it("keeps only proposals dated inside the window and records it", () => {
    const report = offlineReport(input, { ks: [2], B: 200, seed: "w", from: "2024-01-01", to: "2024-03-31" });
    expect(report.systems[0].proposals).toBe(1); // p1 only: p2 is after, p3 undated
    expect(report.parameters.window).toEqual({
      from: "2024-01-01",
      to: "2024-03-31",
      proposals: 1,
      undated: 1,
    });
    const open = offlineReport(input, { ks: [2], B: 200, seed: "w", from: "2024-06-01" });
    expect(open.systems[0].proposals).toBe(1); // p2, the bound inclusive
    const none = offlineReport(input, { ks: [2], B: 200, seed: "w" });
    expect(none.systems[0].proposals).toBe(3);
    expect(none.parameters.window).toEqual({ from: null, to: null, proposals: 3, undated: 1 });
  });

  it("flags top-K slots whose profile is dated after the proposal", () => {
    const sys = offlineReport(input, { ks: [1, 2, 4], B: 200, seed: "w" }).systems[0].integrity;
    // Checkable slots need both dates (p3 is undated): K=1 → a (leak), c (leak); K=2 adds x, d (no profile date);
    // K=4 adds b (before p1: fine) and y (no date).
    expect(sys.leakage).toEqual([
      { k: 1, checked: 2, flagged: 2, share: 1, proposals: 2 },
      { k: 2, checked: 2, flagged: 2, share: 1, proposals: 2 },
      { k: 4, checked: 3, flagged: 2, share: 2 / 3, proposals: 2 },
    ]);
    expect(sys.leakedSlots).toEqual([
      { proposal: "p1", candidate: "a", rank: 1, proposalDate: "2024-01-10", profileDate: "2024-02-01" },
      { proposal: "p2", candidate: "c", rank: 1, proposalDate: "2024-06-01", profileDate: "2024-06-02" },
    ]);
  });
});

describe("stratified bootstrap", () => {
  it("keeps every stratum's size in every resample, and one seed gives the same draws", () => {
    const strata = ["a", "b", "a", "c", "b", "a", "a"];
    const draw = createResampler(strata.length, createRng(7), strata);
    const again = createResampler(strata.length, createRng(7), strata);
    const out = new Int32Array(strata.length);
    const out2 = new Int32Array(strata.length);
    for (let r = 0; r < 500; r++) {
      draw(out);
      again(out2);
      expect([...out]).toEqual([...out2]);
      const counts: Record<string, number> = {};
      for (const i of out) counts[strata[i]] = (counts[strata[i]] ?? 0) + 1;
      expect(counts).toEqual({ a: 4, b: 2, c: 1 });
    }
  });

  it("draws exactly as the plain bootstrap when not stratified", () => {
    const rng = createRng("same");
    const reference = Array.from({ length: 20 }, () => rng.int(20));
    const out = new Int32Array(20);
    createResampler(20, createRng("same"))(out);
    expect([...out]).toEqual(reference);
  });

  it("gives the report's intervals from within-subject resamples, the point values unchanged", () => {
    // Subject s1 always hits at rank 1, subject s2 never: a stratified draw always holds 5 of each,
    // so HR@1 is exactly 0.5 in every resample and its interval collapses; the plain one does not.
    const proposals = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, subject: i < 5 ? "s1" : "s2" }));
    const data: OfflineInput = {
      proposals,
      gold: new Map(proposals.map((p) => [p.id, new Set(["g"])])),
      systems: [
        {
          key: "s",
          name: "S",
          lists: new Map(
            proposals.map((p, i) => [p.id, new Map([["default", i < 5 ? ["g", "z"] : ["z", "y"]]])]),
          ),
        },
      ],
      catalog: new Set(["g", "y", "z"]),
    };
    const plain = offlineReport(data, { ks: [1], B: 500, seed: 1 });
    const stratified = offlineReport(data, { ks: [1], B: 500, seed: 1, stratify: "subject" });
    expect(stratified.parameters.stratify).toBe("subject");
    expect(stratified.systems[0].overall.measures["Success@1"].value).toBe(0.5);
    expect(stratified.systems[0].overall.measures["Success@1"].ci).toEqual({ lower: 0.5, upper: 0.5 });
    expect(plain.systems[0].overall.measures["Success@1"].ci!.lower).toBeLessThan(0.5);
  });
});

describe("the demo's dates and conflicts", () => {
  it("spread proposals over 2023–2024, plant profiles dated after a listing proposal, and conflicts in the top 10", async () => {
    const { generateDemo } = await import("../demo/generate");
    const { demoDatesAndConflicts } = await import("../demo/dates-and-conflicts");
    const data = generateDemo({ proposals: 40, candidates: 400 });
    const extra = demoDatesAndConflicts(data);
    expect(demoDatesAndConflicts(data)).toEqual(extra); // deterministic
    const dates = extra.proposalDates.map((d) => d.date).sort();
    expect(dates[0] >= "2023-01-01" && dates[dates.length - 1] <= "2024-12-31").toBe(true);
    const dateOf = new Map(extra.proposalDates.map((d) => [d.proposal, d.date]));
    const profile = new Map(extra.profileDates.map((d) => [d.candidate, d.date]));
    const top10 = data.lists.flatMap((l) =>
      l.items.slice(0, 10).map((it) => ({ proposal: l.proposal, candidate: it.candidate })),
    );
    expect(
      top10.filter((s) => (profile.get(s.candidate) ?? "") > dateOf.get(s.proposal)!).length,
    ).toBeGreaterThan(0);
    const conflicted = new Set(extra.conflicts.map((c) => `${c.proposal} ${c.candidate}`));
    expect(top10.filter((s) => conflicted.has(`${s.proposal} ${s.candidate}`)).length).toBeGreaterThan(3);
  });
});
