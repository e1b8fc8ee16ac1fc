import { savingMarks, savingSentence } from "./saving-marks";
import { savingCurves } from "./gold-learning-curves";
import type { CampaignGold } from "~/data/campaigns.server";
import type { Json } from "~/utils/json-type";

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
    const points = savingMarks(curves, 3);
    // Majority at all its votes saves nothing and the method that never gets there has no mark.
    expect(points.map((p) => [p.method, p.n, p.accuracy, p.gradesSaved, p.label])).toEqual([
      ["nn s=0.3", 2, 0.7, 1234, "nn s=0.3: 1,234 grades saved"],
      ["nn adaptive", 2, 0.7, 1234, "nn adaptive: 1,234 grades saved"],
    ]);
    // Two methods on one point: the second label goes below the first, not on top of it.
    expect(points[1].labelY).toBeLessThan(points[0].labelY);
    expect(points.map((p) => p.anchor)).toEqual(["start", "start"]);
    expect(savingMarks(curves, 2).map((p) => p.anchor)).toEqual(["end", "end"]);
  });
});

describe("grades saved, marked on the main learning curves", () => {
  const curve = (accuracies: number[]) => accuracies.map((accuracy, k) => ({ n: k + 1, accuracy, ci: null }));
  const gold = {
    aggregation: { majority: {}, "dawid-skene": {}, median: {} },
    learningCurve: {
      majority: curve([0.6, 0.7, 0.8]),
      "dawid-skene": curve([0.7, 0.8, 0.85]),
      median: curve([0.5, 0.6, 0.7]),
    },
    gradesSaved: {
      majority: { n: 3, gradesUsed: 300, gradesSaved: 0 },
      "dawid-skene": { n: 2, gradesUsed: 200, gradesSaved: 100 },
      median: null,
    },
    grades: 300,
  } as unknown as Json<CampaignGold>;

  it("rings Dawid–Skene where it first reaches majority's all-rater accuracy, under the methods' own names", () => {
    const curves = savingCurves(gold);
    const marks = savingMarks(curves, 3);
    expect(marks.map((p) => [p.n, p.accuracy, p.label])).toEqual([[2, 0.8, "Dawid–Skene: 100 grades saved"]]);
    expect(savingSentence(curves)).toBe("Majority vote 0 (n = 3), Dawid–Skene 100 (n = 2)");
  });

  it("marks nothing for results kept before the saving was computed", () => {
    const { gradesSaved: _, grades: __, ...before } = gold as unknown as Record<string, unknown>;
    const curves = savingCurves(before as unknown as Json<CampaignGold>);
    expect(savingMarks(curves, 3)).toEqual([]);
    expect(savingSentence(curves)).toBe("none");
  });
});
