import { scoreBands, wilsonInterval } from "./score-bands";

describe("score bands", () => {
  const gold = new Map([
    ["p1", new Set(["a"])],
    ["p2", new Set(["e"])],
  ]);
  const lists = [
    { proposal: "p1", subject: null, items: ["a", "b", "c"], scores: [0.9, 0.5, 0.1] },
    { proposal: "p2", subject: null, items: ["d", "e"], scores: [0.7, 0.3] },
  ];

  it("counts candidates and committee members per given band, highest first, with Wilson intervals", () => {
    const bands = scoreBands(lists, gold, { thresholds: [0.5] })!;
    expect(bands.method).toBe("given");
    // ≥ 0.5: a (member), b, d → 1 of 3; < 0.5: c, e (member) → 1 of 2.
    expect(bands.bands.map((b) => [b.lower, b.upper, b.candidates, b.members])).toEqual([
      [0.5, null, 3, 1],
      [null, 0.5, 2, 1],
    ]);
    expect(bands.bands[0].meanScore).toBeCloseTo(0.7, 12);
    // statsmodels proportion_confint(1, 3, method="wilson") = (0.0614919, 0.7923404).
    expect(bands.bands[0].ci!.lower).toBeCloseTo(0.0614919447, 8);
    expect(bands.bands[0].ci!.upper).toBeCloseTo(0.7923403992, 8);
  });

  it("cuts at the type-7 deciles of the scores by default", () => {
    const one = [
      {
        proposal: "p1",
        subject: null,
        items: "abcdefghij".split(""),
        scores: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
      },
    ];
    const bands = scoreBands(one, gold)!;
    expect(bands.method).toBe("deciles");
    // Deciles of 1..10: 1.9, 2.8, …, 9.1, so each band holds one score; "a" (10) is the member.
    expect(bands.thresholds.map((t) => +t.toFixed(9))).toEqual([1.9, 2.8, 3.7, 4.6, 5.5, 6.4, 7.3, 8.2, 9.1]);
    expect(bands.bands.map((b) => b.candidates)).toEqual(Array(10).fill(1));
    expect(bands.bands.map((b) => b.members)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("merges tied deciles, keeps only given empty bands (without a share), and is null without scores", () => {
    const tied = scoreBands(
      [{ proposal: "p1", subject: null, items: ["a", "b"], scores: [0.5, 0.5] }],
      gold,
    )!;
    expect(tied.thresholds).toEqual([0.5]);
    // The band below the tied edge would be empty: deciles leave it out, given bands keep it.
    expect(tied.bands.map((b) => [b.candidates, b.share, b.ci])).toEqual([[2, 0.5, wilsonInterval(1, 2)]]);
    const given = scoreBands(
      [{ proposal: "p1", subject: null, items: ["a", "b"], scores: [0.5, 0.5] }],
      gold,
      { thresholds: [0.5] },
    )!;
    expect(given.bands.map((b) => [b.candidates, b.share, b.ci])).toEqual([
      [2, 0.5, wilsonInterval(1, 2)],
      [0, null, null],
    ]);
    expect(scoreBands([{ proposal: "p1", subject: null, items: ["a"], scores: null }], gold)).toBeNull();
  });

  it("gives Wilson's interval at 0 successes (statsmodels: (0, 0.4344825))", () => {
    expect(wilsonInterval(0, 5).lower).toBe(0);
    expect(wilsonInterval(0, 5).upper).toBeCloseTo(0.4344824648, 8);
  });
});
