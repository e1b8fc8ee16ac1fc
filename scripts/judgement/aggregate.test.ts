import { createRng } from "../lib/random";
import { aggregateItems, aggregationAccuracy, majorityGrade, meanGrade, medianGrade } from "./aggregate";

describe("aggregations of one item's grades", () => {
  it("median: the lower middle for even counts", () => {
    expect(medianGrade([3, 1, 2])).toBe(2);
    expect(medianGrade([4, 1, 2, 3])).toBe(2); // sorted 1 2 3 4: middles 2 and 3, the lower one
    expect(medianGrade([])).toBeNull();
  });

  it("majority: the most frequent grade; a tie undecided unless a seeded coin breaks it", () => {
    expect(majorityGrade([2, 3, 2, 4])).toBe(2);
    expect(majorityGrade([1, 1, 4, 4, 2])).toBeNull();
    expect(majorityGrade([])).toBeNull();
    // The coin picks among the tied grades only, and the same seed picks the same one.
    const picks = Array.from({ length: 200 }, (_, i) => majorityGrade([1, 1, 4, 4, 2], createRng(i)));
    expect(new Set(picks)).toEqual(new Set([1, 4]));
    expect(picks.filter((p) => p === 1).length).toBeGreaterThan(70); // about half of 200
    expect(majorityGrade([1, 4], createRng("s"))).toBe(majorityGrade([4, 1], createRng("s")));
  });

  it("mean: rounded half up to a grade", () => {
    expect(meanGrade([2, 3])).toBe(3); // 2.5 → 3
    expect(meanGrade([1, 2, 2])).toBe(2); // 1.667 → 2
    expect(meanGrade([1, 1, 2])).toBe(1); // 1.333 → 1
    expect(meanGrade([1, 4, 4, 1])).toBe(3); // 2.5 → 3
  });
});

describe("aggregation accuracy", () => {
  it("scores each method on the gold items, undecided and unrated counting as wrong", () => {
    // a: 1 1 2 → median 1, majority 1, mean 1 (1.33); truth 1: all right.
    // b: 2 4 → median 2, majority undecided, mean 3; truth 3: only the mean is right.
    // c: nobody graded it; truth 2: wrong for every method.
    const ratings = [
      { item: "a", rater: "x", grade: 1 },
      { item: "a", rater: "y", grade: 1 },
      { item: "a", rater: "z", grade: 2 },
      { item: "b", rater: "x", grade: 2 },
      { item: "b", rater: "y", grade: 4 },
    ];
    const truth = new Map([
      ["a", 1],
      ["b", 3],
      ["c", 2],
    ]);
    const labels = new Map(
      (["median", "majority", "mean"] as const).map((m) => [m, aggregateItems(ratings, m)]),
    );
    const accuracy = aggregationAccuracy(labels, truth, { B: 200, seed: 3 });
    expect(accuracy.get("median")!.accuracy).toBeCloseTo(1 / 3, 12);
    expect(accuracy.get("majority")!.accuracy).toBeCloseTo(1 / 3, 12);
    expect(accuracy.get("mean")!.accuracy).toBeCloseTo(2 / 3, 12);
    expect(accuracy.get("mean")!.ci).toEqual(
      aggregationAccuracy(labels, truth, { B: 200, seed: 3 }).get("mean")!.ci,
    );
  });
});
