import { describe, expect, it } from "vitest";
import { gradesByGroup, type LabelledPair } from "./composition";

// Five women (c1–c5), five men (c6–c10), one "x" (c11): "x" is under the minimum of 5 and never shown.
const gender = new Map([
  ...["c1", "c2", "c3", "c4", "c5"].map((c) => [c, "f"] as const),
  ...["c6", "c7", "c8", "c9", "c10"].map((c) => [c, "m"] as const),
  ["c11", "x"],
]);
const pairs: LabelledPair[] = [
  { proposal: "P1", candidate: "c1", grade: 4 },
  { proposal: "P1", candidate: "c2", grade: 2 },
  { proposal: "P1", candidate: "c6", grade: 3 },
  { proposal: "P1", candidate: "c7", grade: 1 },
  { proposal: "P2", candidate: "c3", grade: 3 },
  { proposal: "P2", candidate: "c8", grade: 4 },
  { proposal: "P2", candidate: "c9", grade: 4 },
  { proposal: "P2", candidate: "c11", grade: 2 },
];

describe("gradesByGroup", () => {
  const report = gradesByGroup({
    pairs,
    attributes: new Map([["gender", gender]]),
    bootstrap: { B: 500, seed: "t" },
  });
  const { f, m, x } = report.gender.groups;

  it("gives each group's share among graded pairs and among pairs graded 3–4, as ratios of sums", () => {
    // Women: 3 of 8 graded pairs (c1, c2, c3), 2 of the 5 graded 3–4 (c1, c3).
    expect(f.graded!.value).toBeCloseTo(3 / 8, 12);
    expect(f.high!.value).toBeCloseTo(2 / 5, 12);
    expect(f.difference!.value).toBeCloseTo(2 / 5 - 3 / 8, 12);
    // Men: 4 of 8 graded (c6–c9), 3 of 5 graded 3–4 (c6, c8, c9).
    expect(m.graded!.value).toBeCloseTo(4 / 8, 12);
    expect(m.high!.value).toBeCloseTo(3 / 5, 12);
    expect(report.gender.pairs).toBe(8);
    expect(report.gender.highPairs).toBe(5);
  });

  it("gives the pool share beside them, over every candidate with a value", () => {
    expect(f.poolSize).toBe(5);
    expect(f.poolShare).toBeCloseTo(5 / 11, 12);
    expect(m.poolShare).toBeCloseTo(5 / 11, 12);
  });

  it("says 'fewer than 5' for a small group and gives it no figure", () => {
    expect(x.suppressed).toBe("fewer than 5");
    expect(x.graded).toBeUndefined();
    expect(x.high).toBeUndefined();
    expect(JSON.stringify(x)).not.toMatch(/value/);
  });

  it("resamples proposals: the women's graded share lies between one proposal's (2/4) and the other's (1/4)", () => {
    // Resamples hold P1 twice (0.5), P2 twice (0.25) or both (0.375).
    expect(f.graded!.ci!.lower).toBeGreaterThanOrEqual(0.25);
    expect(f.graded!.ci!.upper).toBeLessThanOrEqual(0.5);
    expect(f.graded!.ci!.lower).toBeLessThan(f.graded!.ci!.upper);
    expect(f.graded!.lists).toBe(2);
  });

  it("counts candidates of the pairs without a value as 'unknown', a group of its own", () => {
    const withUnknown = gradesByGroup({
      pairs: [
        ...pairs,
        ...["u1", "u2", "u3", "u4", "u5"].map((c) => ({ proposal: "P3", candidate: c, grade: 4 })),
      ],
      attributes: new Map([["gender", gender]]),
      bootstrap: { B: 50, seed: "t" },
    });
    const unknown = withUnknown.gender.groups.unknown;
    expect(unknown.poolSize).toBe(5);
    expect(unknown.graded!.value).toBeCloseTo(5 / 13, 12);
    expect(unknown.high!.value).toBeCloseTo(5 / 10, 12);
  });

  it("gives the same intervals for the same seed", () => {
    const again = gradesByGroup({
      pairs,
      attributes: new Map([["gender", gender]]),
      bootstrap: { B: 500, seed: "t" },
    });
    expect(again).toEqual(report);
  });
});
