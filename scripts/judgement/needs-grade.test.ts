import { createRng } from "../lib/random";
import { needsAnotherGrade, nextGradeChances, type PairGrades } from "./needs-grade";
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

  it("with enough raters, ranks a pair whose Dawid–Skene posterior is split above one whose posterior is confident", () => {
    // Raters r1 and r2 grade 60 background pairs right, u at random: Dawid–Skene learns that u's grades
    // say little. Pair z has one 3 from u (split posterior), pair a one 3 from r1 (confident). Both sit
    // first in a list of their own above a pair graded 2, so a next grade of 1 (label 1) moves nDCG
    // alike; only the chance of that grade differs. The spread of grades would see two equal pairs
    // (a single 3 each) and put a first, by name.
    const rng = createRng("posterior");
    const background: PairGrades[] = Array.from({ length: 60 }, (_, i) => {
      const truth = 1 + (i % 4);
      return {
        item: `bg${i}`,
        proposal: "bg",
        candidate: `c${i}`,
        grades: [truth, truth, 1 + rng.int(4)],
        raters: ["r1", "r2", "u"],
      };
    });
    const pairs: PairGrades[] = [
      ...background,
      { item: "z", proposal: "qz", candidate: "z", grades: [3], raters: ["u"] },
      { item: "fz", proposal: "qz", candidate: "fz", grades: [2, 2], raters: ["r1", "r2"] },
      { item: "a", proposal: "qa", candidate: "a", grades: [3], raters: ["r1"] },
      { item: "fa", proposal: "qa", candidate: "fa", grades: [2, 2], raters: ["r1", "r2"] },
    ];
    const systems = [
      {
        key: "S",
        lists: new Map([
          ["qz", ["z", "fz"]],
          ["qa", ["a", "fa"]],
        ]),
      },
    ];
    const ranked = needsAnotherGrade(pairs, systems, 10);
    expect(ranked[0].basis).toBe("dawid-skene");
    expect(ranked.slice(0, 2).map((r) => r.item)).toEqual(["z", "a"]);
    expect(ranked[0].expectedShift).toBeGreaterThan(ranked[1].expectedShift);
    const { chances } = nextGradeChances(pairs);
    const [split, confident] = [chances(pairs[60]), chances(pairs[62])];
    expect(split.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(Math.max(...confident)).toBeGreaterThan(Math.max(...split));
    // Without the raters' names (or with too few raters) the spread of grades decides: a before z.
    const anonymous = pairs.map(({ raters: _, ...p }) => p);
    const bySpread = needsAnotherGrade(anonymous, systems, 10);
    expect(bySpread[0].basis).toBe("spread");
    expect(bySpread.slice(0, 2).map((r) => r.item)).toEqual(["a", "z"]);
  });

  it("reaches 95% of the all-grades accuracy with fewer grades than uniform requests (seeded simulation)", () => {
    // 30 proposals, two systems' top 10 of 20 candidates pooled, up to 5 noisy grades per pair, 10% of
    // the pairs asked per round, one more grade of each asked pair (scoped assignments). Seed "sim": 424
    // pairs, all 2,120 grades give 91.7% accuracy; uniform requests reach 95% of it at 1,800 grades,
    // uncertainty-driven ones at 1,413 (387 fewer). The exact all-grades accuracy takes nearly every
    // grade either way (2,101 uniform, 2,120 uncertain): a median of 5 noisy grades is only matched late.
    const s = simulateGradeRequests({ seed: "sim" });
    expect(s.pairs).toBe(424);
    expect(s.allGrades).toEqual({ grades: 2120, accuracy: expect.closeTo(389 / 424, 12) });
    expect([s.uniform.gradesToTarget, s.uncertain.gradesToTarget]).toEqual([1800, 1413]);
    expect([s.uniform.gradesToAll, s.uncertain.gradesToAll]).toEqual([2101, 2120]);
  }, 120_000);

  it("spends fewer grades per pair than per proposal, where each request gave a new expert the whole pool", () => {
    // Same world and rankings; a request now buys one more grade of every pair of the asked pairs'
    // proposals (what requests did before assignments could be scoped to pairs). Uncertainty-driven
    // requests need 1,743 grades to reach 95% instead of 1,413; uniform ones 2,066 instead of 1,800.
    const s = simulateGradeRequests({ seed: "sim", requests: "proposal" });
    expect([s.uniform.gradesToTarget, s.uncertain.gradesToTarget]).toEqual([2066, 1743]);
    const perPair = simulateGradeRequests({ seed: "sim" });
    expect(perPair.uncertain.gradesToTarget!).toBeLessThan(s.uncertain.gradesToTarget!);
  }, 120_000);
});
