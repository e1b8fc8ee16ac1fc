import { panel } from "../../test/rating-panel";
import { gradesSavedAt, learningCurves, mergeCurves } from "./learning-curve";

// Gold item a: grades 1 and 2, truth 1. Gold item b: grades 3 and 3, truth 3.
const ratings = [
  { item: "a", rater: "x", grade: 1 },
  { item: "a", rater: "y", grade: 2 },
  { item: "b", rater: "x", grade: 3 },
  { item: "b", rater: "y", grade: 3 },
];
const truth = new Map([
  ["a", 1],
  ["b", 3],
]);

describe("learning curves", () => {
  it("averages seeded draws of n raters, worked by hand", () => {
    // n = 1: b is always right; a is right when the draw picks x (grade 1), half the time, so each
    //   draw scores 1/2 or 1, the mean about 3/4 and the band [1/2, 1].
    // n = 2 (every rater): median(1, 2) = 1, right: accuracy 1; majority ties on a: undecided, 1/2.
    // Suggested n: the median needs 2 (3/4 < 0.95); the majority reaches its all-rater 1/2 with 1.
    const curves = learningCurves(ratings, ["median", "majority"], truth, { draws: 1000, seed: 5 });
    const median = curves.get("median")!;
    expect(median.points.map((p) => p.n)).toEqual([1, 2]);
    expect(Math.abs(median.points[0].accuracy - 0.75)).toBeLessThan(0.03);
    expect(median.points[0].ci).toEqual({ lower: 0.5, upper: 1 });
    expect(median.points[1]).toEqual({ n: 2, accuracy: 1, ci: { lower: 1, upper: 1 } });
    expect(median).toMatchObject({ allRaters: 1, suggestedN: 2 });
    expect(curves.get("majority")).toMatchObject({ allRaters: 0.5, suggestedN: 1 });
    expect(curves.get("majority")!.points[0].accuracy).toBe(median.points[0].accuracy); // one grade: the same label
  });

  it("repeats itself for a seed", () => {
    const a = learningCurves(ratings, ["mean", "dawid-skene"], truth, { draws: 50, seed: "s" });
    const b = learningCurves(ratings, ["mean", "dawid-skene"], truth, { draws: 50, seed: "s" });
    expect([...a]).toEqual([...b]);
  });

  it("scores against the all-rater label when there is no gold", () => {
    // Without truth the all-rater labels are the reference: median all-rater accuracy is 1 by
    // construction; one rater matches it on b always and on a half the time.
    const median = learningCurves(ratings, ["median"], null, { draws: 1000, seed: 5 }).get("median")!;
    expect(median.allRaters).toBe(1);
    expect(Math.abs(median.points[0].accuracy - 0.75)).toBeLessThan(0.03);
  });

  it("gives the same points computed apart (as threads do) as all at once", () => {
    const { ratings: many, truth: gold } = panel();
    const methods = ["majority", "dawid-skene"] as const;
    const whole = learningCurves(many, methods, gold, { draws: 20, seed: "apart" });
    const parts = [[1, 3], [2, 4], [5]].map((points) =>
      learningCurves(many, methods, gold, { draws: 20, seed: "apart", points }),
    );
    expect(parts[0].get("majority")!.points.map((p) => p.n)).toEqual([1, 3]);
    expect(mergeCurves(parts)).toEqual(whole);
  });

  it("refuses a subset of points with coin ties, whose coin shares the seeded stream", () => {
    expect(() => learningCurves(ratings, ["majority"], truth, { coinTies: true, points: [1] })).toThrow(
      /coin/,
    );
  });
});

describe("grades saved where a learning curve reaches a target", () => {
  it("takes the first n reaching it and counts min(n, the item's grades) as used", () => {
    const points = [
      { n: 1, accuracy: 0.6 },
      { n: 2, accuracy: 0.8 - 1e-15 },
      { n: 3, accuracy: 0.85 },
    ];
    // Items with 3, 3 and 1 grades: at n = 2 they keep 2 + 2 + 1 of 7.
    expect(gradesSavedAt(points, 0.8, [3, 3, 1])).toEqual({ n: 2, gradesUsed: 5, gradesSaved: 2 });
    expect(gradesSavedAt(points, 0.9, [3, 3, 1])).toBeNull();
  });
});
