import { savingMarks } from "./gold-text-figures";

const point = (n: number, accuracy: number) => ({
  n,
  accuracy,
  ci: null,
  difference: null,
  differenceCi: null,
  pValue: null,
  pHolm: null,
});

describe("grades saved, marked on the text-aware learning curves", () => {
  it("rings where each method first reaches majority's all-vote accuracy and labels the grades saved", () => {
    const curves = [
      {
        method: "majority",
        points: [point(1, 0.5), point(2, 0.6), point(3, 0.7)],
        allVotes: 0.7,
        saving: { n: 3, gradesUsed: 90, gradesSaved: 0 },
      },
      {
        method: "nn s=0.3",
        points: [point(1, 0.55), point(2, 0.7), point(3, 0.72)],
        allVotes: 0.72,
        saving: { n: 2, gradesUsed: 60, gradesSaved: 1234 },
      },
      {
        method: "nn adaptive",
        points: [point(1, 0.55), point(2, 0.7), point(3, 0.71)],
        allVotes: 0.71,
        saving: { n: 2, gradesUsed: 60, gradesSaved: 1234 },
      },
      { method: "majority+nn s=0.3", points: [point(1, 0.3), point(2, 0.4)], allVotes: 0.5, saving: null },
    ];
    const { points, target } = savingMarks({ curves }, 3);
    // Majority at all its votes saves nothing and the method that never gets there has no mark.
    expect(target).toBe(0.7);
    expect(points.map((p) => [p.method, p.n, p.accuracy, p.gradesSaved, p.label])).toEqual([
      ["nn s=0.3", 2, 0.7, 1234, "nn s=0.3: 1,234 grades saved"],
      ["nn adaptive", 2, 0.7, 1234, "nn adaptive: 1,234 grades saved"],
    ]);
    // Two methods on one point: the second label goes below the first, not on top of it.
    expect(points[1].labelY).toBeLessThan(points[0].labelY);
    expect(points.map((p) => p.anchor)).toEqual(["start", "start"]);
    expect(savingMarks({ curves }, 2).points.map((p) => p.anchor)).toEqual(["end", "end"]);
  });
});
