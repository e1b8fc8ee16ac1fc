import { needsAnotherGrade } from "./needs-grade";
import { simulateGradeRequests } from "./needs-grade-simulation";

describe("needs another grade", () => {
  it("ranks pairs by the expected change of the systems' nDCG order, worked by hand", () => {
    // Proposal q: S1 lists [a, b], S2 [b, a]. Labels a = 3 (rel 2), b = 2 (rel 1); c (proposal r, in no
    // list) only adds its grade to the campaign's prior: grades 3, 2, 2, 1 → prior (1/4, 1/2, 1/4, 0).
    // L = log2 3. nDCG: S1 = 1; S2 = (1 + 2/L)/(2 + 1/L). b's [2, 2] and c's [1] keep their label
    // whatever comes next. a's next grade: p(1) = 1/8 → label 1 (rel 0): S1 = 1/L... = 0.631, S2 = 1,
    // the order flips; p(2) = 1/4 → label 2: both 1, a tie (a shift, no flip); p(3) = 5/8: no change.
    const L = Math.log2(3);
    const d0 = 1 - (1 + 2 / L) / (2 + 1 / L);
    const pairs = [
      { item: "a", proposal: "q", candidate: "a", grades: [3] },
      { item: "b", proposal: "q", candidate: "b", grades: [2, 2] },
      { item: "c", proposal: "r", candidate: "c", grades: [1] },
    ];
    const systems = [
      { key: "S1", lists: new Map([["q", ["a", "b"]]]) },
      { key: "S2", lists: new Map([["q", ["b", "a"]]]) },
    ];
    const [first, ...rest] = needsAnotherGrade(pairs, systems, 10);
    expect(first.item).toBe("a");
    expect(first.changeChance).toBeCloseTo(3 / 8, 12);
    expect(first.expectedFlips).toBeCloseTo(1 / 8, 12);
    expect(first.expectedShift).toBeCloseTo((1 / 8) * (d0 + (1 - 1 / L)) + (1 / 4) * d0, 12);
    expect(rest.map((r) => [r.item, r.changeChance, r.expectedShift])).toEqual([
      ["b", 0, 0],
      ["c", 0, 0],
    ]);
  });

  it("reaches 95% of the all-grades accuracy with fewer grades than uniform requests (seeded simulation)", () => {
    // 30 proposals, two systems' top 10 of 20 candidates pooled, up to 5 noisy grades per pair, 10% of
    // the pairs asked per round. Seed "sim": 424 pairs, all 2,120 grades give 91.7% accuracy; uniform
    // requests reach 95% of it at 1,800 grades, uncertainty-driven ones at 1,413 (387 fewer).
    const s = simulateGradeRequests({ seed: "sim" });
    expect(s.pairs).toBe(424);
    expect(s.allGrades).toEqual({ grades: 2120, accuracy: expect.closeTo(389 / 424, 12) });
    expect(s.uniform.gradesToTarget).toBe(1800);
    expect(s.uncertain.gradesToTarget).toBe(1413);
  }, 120_000);
});
