import fs from "node:fs";
import path from "node:path";
import {
  agreementReport,
  alphaLevels,
  alphaOfParts,
  alphaOfUnits,
  coincidenceParts,
  krippendorffAlpha,
  type Rating,
} from "./agreement";
import { aggregateGrade, gradeToRel, isDisagreement } from "./labels";
import { assignUnit } from "../assign/assign";

// Krippendorff (2011), the 4 raters × 12 units example (test/fixtures/agreement-krippendorff).
const dir = path.join(__dirname, "../../test/fixtures");
const ratings: Rating[] = fs
  .readFileSync(path.join(dir, "agreement-krippendorff/ratings.csv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [item, rater, grade] = line.split(",");
    return { item, rater, value: Number(grade) };
  });
const expected = JSON.parse(
  fs.readFileSync(path.join(dir, "agreement-krippendorff/expected.json"), "utf8"),
) as Record<string, number>;

describe("Krippendorff's alpha", () => {
  it.each(alphaLevels)("%s α matches the published value within 1e-6 relative", (level) => {
    expect(Math.abs(krippendorffAlpha(ratings, level)! / expected[level] - 1)).toBeLessThan(1e-6);
  });

  it("is 1 for perfect agreement and null when nothing varies", () => {
    const same: Rating[] = [
      { item: "a", rater: "x", value: 1 },
      { item: "a", rater: "y", value: 1 },
      { item: "b", rater: "x", value: 3 },
      { item: "b", rater: "y", value: 3 },
    ];
    expect(krippendorffAlpha(same, "ordinal")).toBe(1);
    expect(krippendorffAlpha(same.map((r) => ({ ...r, value: 2 })))).toBeNull();
  });

  it("reports a seeded bootstrap CI over items and leave-one-out α per rater", () => {
    const report = agreementReport(ratings, "ordinal", { B: 500, seed: 1 });
    expect(report).toMatchObject({ items: 12, raters: 4, pairableValues: 40 });
    expect(report.ci!.lower).toBeLessThan(report.alpha!);
    expect(report.ci!.upper).toBeGreaterThan(report.alpha!);
    expect(agreementReport(ratings, "ordinal", { B: 500, seed: 1 }).ci).toEqual(report.ci);
    expect(report.leaveOneOut.map((r) => r.rater)).toEqual(["rater-1", "rater-2", "rater-3", "rater-4"]);
    expect(report.leaveOneOut[0].alpha).toBeCloseTo(
      krippendorffAlpha(ratings.filter((r) => r.rater !== "rater-1"))!,
      12,
    );
  });

  it("rejects a rater grading one item twice", () => {
    expect(() => krippendorffAlpha([...ratings, { item: "item-1", rater: "rater-1", value: 2 }])).toThrow(
      "rater-1 rated item-1 twice",
    );
  });
});

describe("label aggregation", () => {
  it("takes the median, the lower middle for even counts, and leaves out can't-judge", () => {
    expect(aggregateGrade([1, 4, 3])).toBe(3);
    expect(aggregateGrade([2, 4])).toBe(2);
    expect(aggregateGrade([null, 4, null])).toBe(4);
    expect(aggregateGrade([null])).toBeNull();
    expect(aggregateGrade([1, 1, 1], 4)).toBe(4);
    expect(gradeToRel(4)).toBe(3);
    expect(isDisagreement([1, 3])).toBe(true);
    expect(isDisagreement([2, 3, null])).toBe(false);
  });
});

describe("GrowthBook v2 assignment", () => {
  const cases = JSON.parse(fs.readFileSync(path.join(dir, "assign-small.json"), "utf8")) as {
    seed: string;
    unit: string;
    hash: number;
    weights: number[];
    coverage: number;
    arm: number;
  }[];
  it.each(cases)("$seed / $unit → hash $hash, arm $arm", (c) => {
    const result = assignUnit(c.seed, c.unit, c.weights, c.coverage);
    expect(result.hash).toBe(c.hash);
    expect(result.arm).toBe(c.arm);
  });

  it("rejects weights that do not sum to 1 and coverage outside [0, 1]", () => {
    expect(() => assignUnit("s", "u", [0.5, 0.6])).toThrow(
      "arm weights must sum to 1, within GrowthBook's 0.99 to 1.01 (they sum to 1.1)",
    );
    expect(() => assignUnit("s", "u", [0.5, 0.5], 1.5)).toThrow("coverage must be between 0 and 1");
  });
});

describe("alpha of a bootstrap draw from the units' laid-out coincidences", () => {
  it("weighing a unit by w is the same as listing it w times, at every level", () => {
    const units = [[1, 2, 2], [3, 3], [4], [1, 4, 4, 2], [2, 3]];
    const weights = [2, 0, 1, 3, 1];
    const listed = units.flatMap((u, i) => Array.from({ length: weights[i] }, () => u));
    for (const level of alphaLevels) {
      expect(alphaOfUnits(units, level, weights)).toBeCloseTo(alphaOfUnits(listed, level)!, 12);
      expect(alphaOfParts(coincidenceParts(units), level, weights)).toBe(alphaOfUnits(units, level, weights));
    }
  });
});
