import { histogramEdges, scoreStats, type ScoredList } from "./score-stats";

describe("score statistics", () => {
  const lists: ScoredList[] = [
    { proposal: "p1", subject: "s1", items: ["a", "b", "c"], scores: [0.9, 0.5, 0.1] },
    { proposal: "p2", subject: "s2", items: ["d", "e"], scores: [0.7, null] },
    { proposal: "p3", subject: "s1", items: ["f"], scores: null },
  ];

  it("summarises the scores at ranks 1..depth, worked by hand", () => {
    const stats = scoreStats(lists, 2);
    if (!stats.scored) throw new Error("expected scores");
    // Ranks 1..2: 0.9, 0.5 (p1) and 0.7 (p2; its rank 2 has no score). Mean 0.7, SD √((0.04 + 0 + 0.04)/2) = 0.2.
    const o = stats.overall;
    expect(o.count).toBe(3);
    expect(o.mean).toBeCloseTo(0.7, 12);
    expect(o.sd).toBeCloseTo(0.2, 12);
    // Type 7 (numpy.percentile's default): q1 at position 0.5 → 0.6, q3 at 1.5 → 0.8.
    expect([o.min, o.q1, o.median, o.q3, o.max].map((v) => +v!.toFixed(12))).toEqual([
      0.5, 0.6, 0.7, 0.8, 0.9,
    ]);
    expect(o.meanByRank.map((v) => +v!.toFixed(12))).toEqual([0.8, 0.5]);
    expect(o.histogram).toHaveLength(10);
    expect(o.histogram[0]).toMatchObject({ lower: 0.5, count: 1 });
    expect(o.histogram[9]).toMatchObject({ upper: 0.9, count: 1 }); // the last bin is closed
    expect(o.histogram.reduce((n, h) => n + h.count, 0)).toBe(3);
    expect(stats.subjects.s1).toMatchObject({ count: 2, mean: 0.7 });
    expect(stats.subjects.s2).toMatchObject({ count: 1, mean: 0.7, sd: null, meanByRank: [0.7, null] });
  });

  it("says so when a system gives no scores", () => {
    expect(scoreStats([{ proposal: "p", subject: null, items: ["a"], scores: null }], 5)).toEqual({
      scored: false,
      depth: 5,
    });
  });

  it("has one bin when every score is the same", () => {
    expect(histogramEdges(3, 3, 10)).toEqual([3, 3]);
    const stats = scoreStats([{ proposal: "p", subject: null, items: ["a", "b"], scores: [3, 3] }], 5);
    expect(stats.scored && stats.overall.histogram).toEqual([{ lower: 3, upper: 3, count: 2 }]);
  });
});
