import fs from "node:fs";
import path from "node:path";
import {
  assignUnit,
  bucketRanges,
  chooseArm,
  getBucketRanges,
  hashVersioned,
  inNamespace,
  validateWeights,
  type Namespace,
} from "./assign";

// GrowthBook's SDK test cases (MIT, see test/fixtures/growthbook/README.md), the sections on assignment.
const cases = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../test/fixtures/growthbook/cases.json"), "utf8"),
);

describe("GrowthBook cases.json", () => {
  it.each(cases.hash as [string, string, number, number | null][])(
    "hash(%j, %j, v%i) = %j",
    (seed, value, version, expected) => {
      expect(hashVersioned(seed, value, version)).toBe(expected);
    },
  );

  it.each(cases.getBucketRange as [string, [number, number, number[] | null], [number, number][]][])(
    "getBucketRanges: %s",
    (_, [n, coverage, weights], expected) => {
      const ranges = getBucketRanges(n, coverage, weights ?? undefined);
      expect(ranges).toHaveLength(expected.length);
      ranges.forEach((r, i) => {
        expect(r[0]).toBeCloseTo(expected[i][0], 12);
        expect(r[1]).toBeCloseTo(expected[i][1], 12);
      });
    },
  );

  it.each(cases.chooseVariation as [string, number, [number, number][], number][])(
    "chooseVariation: %s",
    (_, hash, ranges, expected) => {
      expect(chooseArm(hash, ranges)).toBe(expected);
    },
  );

  it.each(cases.inNamespace as [string, string, Namespace, boolean][])(
    "inNamespace: %s",
    (_, unit, namespace, expected) => {
      expect(inNamespace(unit, namespace)).toBe(expected);
    },
  );
});

describe("Assay's assignment on top of it", () => {
  it("accepts the weight totals GrowthBook uses as given and refuses the ones it would replace", () => {
    expect(() => validateWeights([0.33, 0.33, 0.33], 1)).not.toThrow();
    expect(() => validateWeights([0.335, 0.335, 0.335], 1)).not.toThrow();
    expect(bucketRanges([0.33, 0.33, 0.33])[2][1]).toBeCloseTo(0.99, 12);
    expect(() => validateWeights([0.5, 0.6], 1)).toThrow(
      "arm weights must sum to 1, within GrowthBook's 0.99 to 1.01 (they sum to 1.1)",
    );
    expect(() => validateWeights([0.4, 0.1], 1)).toThrow("they sum to 0.5");
    expect(() => validateWeights([1.2, -0.2], 1)).toThrow("numbers of 0 or more");
  });

  it("hashes with v1 on request and leaves units outside the namespace without an arm", () => {
    expect(assignUnit("s", "u", [0.5, 0.5], 1, { hashVersion: 1 }).hash).toBe(hashVersioned("s", "u", 1));
    expect(assignUnit("s", "u", [0.5, 0.5]).hash).toBe(hashVersioned("s", "u", 2));
    // cases.json: user "3" is in namespace2's [0, 0.4) and not in namespace1's.
    expect(assignUnit("exp", "3", [0.5, 0.5], 1, { namespace: ["namespace1", 0, 0.4] }).arm).toBe(-1);
    expect(assignUnit("exp", "3", [0.5, 0.5], 1, { namespace: ["namespace2", 0, 0.4] }).arm).toBe(
      assignUnit("exp", "3", [0.5, 0.5]).arm,
    );
  });
});
