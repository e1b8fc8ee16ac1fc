import { describe, expect, it } from "vitest";
import { adoptedComposition, gradesByGroup, shareGuardrails, type LabelledPair } from "./composition";

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

// Ten women (w1–w10), ten men (m1–m10), two "x" (under the minimum).
const people = new Map([
  ...Array.from({ length: 10 }, (_, i) => [`w${i + 1}`, "f"] as const),
  ...Array.from({ length: 10 }, (_, i) => [`m${i + 1}`, "m"] as const),
  ["x1", "x"],
  ["x2", "x"],
]);
const adopt = (unit: string, arm: string, ...candidates: string[]) =>
  candidates.map((candidate) => ({ unit, arm, candidate }));

describe("adoptedComposition", () => {
  const mixed = adoptedComposition({
    adoptions: [
      ...adopt("u1", "A", "w1", "m1"),
      ...adopt("u2", "A", "m2", "m3"),
      ...adopt("u3", "B", "w2", "w3"),
      ...adopt("u4", "B", "w4", "m4", "m5"),
      ...adopt("u5", "B", "x1"),
    ],
    attributes: new Map([["gender", people]]),
    control: "A",
    arms: ["A", "B"],
    bootstrap: { B: 400, seed: "t" },
  });

  it("gives each group's share among each arm's adopted candidates, a ratio of sums over conveners", () => {
    const f = mixed.attributes.gender.groups.f;
    // A: 1 woman of 4 adopted; B: 3 of 6 (x1 counts among the adopted, in a group not shown).
    expect(f.arms!.A.value).toBeCloseTo(1 / 4, 12);
    expect(f.arms!.B.value).toBeCloseTo(3 / 6, 12);
    expect(f.differences!.B.value).toBeCloseTo(3 / 6 - 1 / 4, 12);
    expect(f.differences!.B.pValue).toBeGreaterThan(0);
    expect(f.differences!.B.pValue).toBeLessThanOrEqual(1);
    expect(mixed.adopted).toEqual({ A: { candidates: 4, units: 2 }, B: { candidates: 6, units: 3 } });
    expect(mixed.attributes.gender.groups.x).toEqual({
      poolSize: 2,
      poolShare: 2 / 22,
      suppressed: "fewer than 5",
    });
  });

  it("adjusts the groups' p-values together by Holm, counting the comparisons (shown groups × arms)", () => {
    const stages = new Map([...people].map(([c], i) => [c, i % 2 === 0 ? "early" : "late"] as const));
    const two = adoptedComposition({
      adoptions: [
        ...adopt("u1", "A", "w1", "m1", "w5"),
        ...adopt("u2", "A", "m2"),
        ...adopt("u3", "B", "w2", "w3", "m6"),
        ...adopt("u4", "B", "m4", "w7"),
      ],
      attributes: new Map([
        ["gender", people],
        ["stage", stages],
      ]),
      control: "A",
      arms: ["A", "B"],
      bootstrap: { B: 400, seed: "holm" },
    });
    // gender f and m, stage early and late: four differences of B from A, each with a p-value.
    expect(two.comparisons).toBe(4);
    const ds = ["gender", "stage"].flatMap((a) =>
      Object.values(two.attributes[a].groups).flatMap((g) => (g.differences ? [g.differences.B] : [])),
    );
    const raw = ds.map((d) => d.pValue!);
    const sorted = [...raw].sort((a, b) => a - b);
    // Holm: the smallest p times 4, then the running maximum of (4 − k)·p, capped at 1.
    const first = ds[raw.indexOf(sorted[0])];
    expect(first.adjustedP).toBeCloseTo(Math.min(1, 4 * sorted[0]), 12);
    for (const d of ds) {
      expect(d.adjustedP!).toBeGreaterThanOrEqual(d.pValue!);
      expect(d.adjustedP!).toBeLessThanOrEqual(1);
    }
  });

  it("tests the difference over conveners: p = 0 when every resample shows it, 1 when none can", () => {
    const apart = adoptedComposition({
      adoptions: [
        ...adopt("u1", "A", "m1", "m2"),
        ...adopt("u2", "A", "m3"),
        ...adopt("u3", "B", "w1"),
        ...adopt("u4", "B", "w2", "w3"),
      ],
      attributes: new Map([["gender", people]]),
      control: "A",
      arms: ["A", "B"],
      bootstrap: { B: 200, seed: "t" },
    });
    const d = apart.attributes.gender.groups.f.differences!.B;
    expect(d.value).toBe(1);
    expect(d.ci).toEqual({ lower: 1, upper: 1 });
    expect(d.pValue).toBe(0);
    const alike = adoptedComposition({
      adoptions: [
        ...adopt("u1", "A", "w1", "m1"),
        ...adopt("u2", "A", "w2", "m2"),
        ...adopt("u3", "B", "w3", "m3"),
        ...adopt("u4", "B", "w4", "m4"),
      ],
      attributes: new Map([["gender", people]]),
      control: "A",
      arms: ["A", "B"],
      bootstrap: { B: 200, seed: "t" },
    });
    expect(alike.attributes.gender.groups.f.differences!.B.pValue).toBe(1);
  });

  it("keeps an interleaving convener's adoptions in both teams paired", () => {
    const teams = adoptedComposition({
      adoptions: [
        ...adopt("u1", "control", "m1"),
        ...adopt("u1", "challenger", "w1"),
        ...adopt("u2", "control", "m2"),
        ...adopt("u2", "challenger", "w2"),
      ],
      attributes: new Map([["gender", people]]),
      control: "control",
      arms: ["control", "challenger"],
      bootstrap: { B: 200, seed: "t" },
    });
    // Every resample of conveners holds both teams, so no resample lacks the difference.
    expect(teams.attributes.gender.groups.f.differences!.challenger).toMatchObject({ value: 1, pValue: 0 });
    expect(teams.adopted.challenger).toEqual({ candidates: 2, units: 2 });
  });
});

describe("shareGuardrails", () => {
  const composition = adoptedComposition({
    adoptions: [...adopt("u1", "A", "m1", "w1"), ...adopt("u2", "B", "w2", "w3"), ...adopt("u3", "B", "w4")],
    attributes: new Map([["gender", people]]),
    control: "A",
    arms: ["A", "B"],
    bootstrap: { B: 200, seed: "t" },
  });

  it("reads the arm's interval against the bound: ok, failing, or at risk", () => {
    // B adopts only women: its share is 1 in every resample.
    const [atLeast, atMost] = shareGuardrails(composition, [
      { attribute: "gender", value: "f", min: 0.35 },
      { attribute: "gender", value: "f", max: 0.5 },
    ]);
    expect(atLeast).toMatchObject({ arm: "B", state: "ok", control: 0.5 });
    expect(atLeast.share!.value).toBe(1);
    expect(atMost.state).toBe("failing");
  });

  it("leaves an unknown attribute or a small group at risk, with the reason", () => {
    const [unknown, small] = shareGuardrails(composition, [
      { attribute: "country", value: "DE", min: 0.1 },
      { attribute: "gender", value: "x", min: 0.1 },
    ]);
    expect(unknown).toMatchObject({ state: "at risk", reason: "no candidate has the attribute country" });
    expect(small).toMatchObject({ state: "at risk", reason: "the group has fewer than 5" });
  });
});
