import { offlineReport, type OfflineInput } from "./report";
import { packOfflineInput, unpackOfflineInput } from "./pack";
import { groundTruthReport } from "./ground-truth";

const lists = (byProposal: Record<string, string[]>) =>
  new Map(Object.entries(byProposal).map(([p, items]) => [p, new Map([["default", items]])]));
const grades = (byProposal: Record<string, Record<string, number>>) =>
  new Map(Object.entries(byProposal).map(([p, g]) => [p, new Map(Object.entries(g))]));

// Three proposals worked by hand: committee members a, b (p1), c (p2), d (p3).
const input = {
  proposals: [{ id: "p1" }, { id: "p2" }, { id: "p3" }, { id: "p4" }],
  gold: new Map([
    ["p1", new Set(["a", "b"])],
    ["p2", new Set(["c"])],
    ["p3", new Set(["d"])],
    ["p4", new Set(["e"])],
  ]),
  systems: [
    { key: "A", name: "A", lists: lists({ p1: ["a", "x", "b"], p2: ["y", "c"], p3: ["d", "z"], p4: ["e"] }) },
    { key: "B", name: "B", lists: lists({ p1: ["x", "y", "a"], p2: ["c", "y"], p3: ["z", "w"] }) },
  ],
};
// p4 has no grades and "q" was graded but listed by no system: neither counts.
const expert = {
  source: "campaign 1",
  labels: grades({ p1: { a: 4, b: 3, x: 1, y: 2, q: 4 }, p2: { c: 1, y: 4 }, p3: { d: 3, z: 2, w: 4 } }),
};

describe("what the ground truth is worth", () => {
  const report = groundTruthReport(input, expert, { B: 200, seed: "t", level: 0.95 });

  it("compares the grades of committee members with the other candidates of the same lists", () => {
    expect(report.proposals).toBe(3);
    const { members, nonMembers } = report.grades;
    expect(members).toEqual({ pairs: 4, counts: [1, 0, 2, 1], mean: 2.75 });
    expect(nonMembers).toEqual({ pairs: 5, counts: [1, 2, 0, 2], mean: 2.6 });
    expect(report.grades.difference.value).toBeCloseTo(0.15, 12);
    expect(report.grades.membersGradedOne).toBe(0.25);
    expect(report.grades.nonMembersGradedFour).toBe(0.4);
    // scipy 1.17.1: mannwhitneyu([4, 3, 3, 1], [1, 2, 4, 2, 4], method="asymptotic") → U 10.5, p 1.0
    expect(report.grades.test!.statistic).toBe(10.5);
    expect(report.grades.test!.pValue).toBe(1);
    const ci = report.grades.difference.ci!;
    expect(ci.lower).toBeLessThanOrEqual(0.15);
    expect(ci.upper).toBeGreaterThanOrEqual(0.15);
  });

  it("recomputes the measures with expert grades ≥ 3 as the gold, beside the committees", () => {
    const [a, b] = report.systems;
    expect(a.measures["Success@10"].committee.value).toBe(1);
    expect(b.measures["Success@10"].committee.value).toBeCloseTo(2 / 3, 12);
    expect(b.measures["Success@10"].experts.value).toBe(1);
    expect(a.measures["RR@10"].committee.value).toBeCloseTo(2.5 / 3, 12);
    expect(b.measures["RR@10"].committee.value).toBeCloseTo(4 / 9, 12);
    expect(a.measures["RR@10"].experts.value).toBe(1);
    expect(b.measures["RR@10"].experts.value).toBeCloseTo(4 / 9, 12);
  });

  it("gains grade − 1 in nDCG under expert gold", () => {
    // B on p3 lists z (grade 2, gain 1) then w (grade 4, gain 3); the ideal is w, d, z (gains 3, 2, 1).
    const dcg = 1 + 3 / Math.log2(3);
    const ideal = 3 + 2 / Math.log2(3) + 1 / 2;
    // p1: x (0), y (1), a (3) against a, q, b, y, x (3, 3, 2, 1, 0): q was graded though no list has it.
    // p2: c (0), y (3) against y, c.
    const p1 = (1 / Math.log2(3) + 3 / 2) / (3 + 3 / Math.log2(3) + 2 / 2 + 1 / Math.log2(5));
    const p2 = 3 / Math.log2(3) / 3;
    expect(report.systems[1].measures["nDCG@10"].experts.value).toBeCloseTo((p1 + p2 + dcg / ideal) / 3, 12);
  });

  it("ranks the systems under both golds with Kendall's τ-b", () => {
    const rr = report.agreement.find((x) => x.measure === "RR@10")!;
    expect(rr.tau).toBe(1);
    // Success@10: A ahead on committees, tied on experts: τ-b has no value.
    expect(report.agreement.find((x) => x.measure === "Success@10")!.tau).toBeNull();
  });
});

describe("the ground truth on the offline report", () => {
  const offline: OfflineInput = {
    ...input,
    proposals: input.proposals.map((p) => ({ ...p, subject: null })),
    catalog: new Set(["a", "b", "c", "d", "e", "x", "y", "z", "w"]),
    systems: input.systems.map((s, i) => ({
      ...s,
      latencies: new Map([["p1", new Map([["default", 10 + i]])]]),
      buildSeconds: 60,
      memoryMb: null,
    })),
    expertLabels: expert,
  };

  it("is a section of the report, and survives the trip to a worker thread with the latencies", () => {
    const report = offlineReport(offline, { ks: [10], B: 50, seed: "t" });
    expect(report.groundTruth!.grades.members.pairs).toBe(4);
    expect(report.systems[1].resources).toMatchObject({ timed: 1, buildSeconds: 60 });
    expect(report.systems[1].resources.p50.value).toBe(11);
    const again = offlineReport(unpackOfflineInput(packOfflineInput(offline)), {
      ks: [10],
      B: 50,
      seed: "t",
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(report));
  });

  it("is absent without expert labels", () => {
    expect(
      offlineReport({ ...offline, expertLabels: undefined }, { ks: [10], B: 50 }).groundTruth,
    ).toBeUndefined();
  });
});
