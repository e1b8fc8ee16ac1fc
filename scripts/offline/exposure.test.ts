import { candidateSubjects, exposureReport, giniIndex } from "./exposure";

describe("diversity and exposure, worked by hand", () => {
  const catalog = new Set(["a", "b", "c", "d", "e"]);
  const proposals = [
    { id: "p1", subject: "s1" },
    { id: "p2", subject: "s1" },
    { id: "p3", subject: "s2" },
    { id: "p4", subject: "s2" },
  ];
  const gold = new Map([
    ["p1", new Set(["a"])],
    ["p2", new Set(["c"])],
    ["p3", new Set(["b"])],
    ["p4", new Set(["b"])],
  ]);
  const lists = [
    { proposal: "p1", subject: "s1", items: ["a", "b", "c"] },
    { proposal: "p2", subject: "s1", items: ["a", "c"] },
    { proposal: "p3", subject: "s2", items: ["b", "a"] },
    { proposal: "p4", subject: "s2", items: [] },
  ];
  const subjects = candidateSubjects(proposals, gold);
  const report = exposureReport(lists, [1, 2], catalog, subjects);

  it("takes a candidate's subject from the committees they sat on", () => {
    expect(subjects).toEqual(
      new Map([
        ["a", "s1"],
        ["c", "s1"],
        ["b", "s2"],
      ]),
    );
  });

  it("prediction coverage: proposals with a non-empty list", () => {
    expect(report.overall.predictionCoverage).toBe(0.75);
    expect(report.subjects.s1.predictionCoverage).toBe(1);
    expect(report.subjects.s2.predictionCoverage).toBe(0.5);
  });

  it("long-tail share@K against the most-recommended ⌈20%⌉ of the catalog (here: a)", () => {
    // Top-2 slots: a ×3, b ×2, c ×1 → head {a}; 3 of 6 slots go to the tail.
    expect(report.overall.byK[1].longTailShare).toBe(0.5);
    // Top-1 slots: a, a, b → 1 of 3 in the tail. Subject s2 at K = 2: b (tail), a (head).
    expect(report.overall.byK[0].longTailShare).toBeCloseTo(1 / 3, 12);
    expect(report.subjects.s2.byK[1].longTailShare).toBe(0.5);
  });

  it("Gini of exposure over the whole catalog, never-shown candidates at 0", () => {
    // Sorted exposure 0, 0, 1, 2, 3; Σ(2i − n − 1)e = 0·1 + 2·2 + 4·3 = 16; 16 / (5 · 6).
    expect(report.overall.byK[1].gini).toBeCloseTo(16 / 30, 12);
    expect(
      giniIndex(
        new Map([
          ["a", 1],
          ["b", 1],
        ]),
        new Set(["a", "b"]),
      ),
    ).toBe(0);
    expect(giniIndex(new Map([["a", 4]]), new Set(["a", "b", "c", "d"]))).toBe(0.75); // (n − 1)/n: one takes all
  });

  it("subject entropy per proposal (mean) and the share of slots from another subject", () => {
    // K = 2: p1 {s1, s2} → 1 bit; p2 {s1, s1} → 0; p3 {s2, s1} → 1; mean 2/3. Other subject: 1 + 0 + 1 of 6.
    expect(report.overall.byK[1].subjectEntropy).toBeCloseTo(2 / 3, 12);
    expect(report.overall.byK[1].otherSubjectShare).toBeCloseTo(1 / 3, 12);
    expect(report.overall.byK[1].unknownSubjectShare).toBe(0);
    // One list with subjects s1, s1, s2, and a third, unknown candidate: H = −(2/3 log2 2/3 + 1/3 log2 1/3).
    const one = exposureReport(
      [{ proposal: "p1", subject: "s1", items: ["a", "c", "b", "d"] }],
      [4],
      catalog,
      subjects,
    );
    expect(one.overall.byK[0].subjectEntropy).toBeCloseTo(0.9182958341, 9);
    expect(one.overall.byK[0].unknownSubjectShare).toBe(0.25);
    expect(one.overall.byK[0].otherSubjectShare).toBeCloseTo(1 / 3, 12);
  });
});
