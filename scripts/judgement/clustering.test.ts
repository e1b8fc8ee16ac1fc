import { readFileSync } from "node:fs";
import { clusteringHypothesis } from "./clustering";

const F = "test/fixtures/text-small";
const rows = (file: string) =>
  readFileSync(`${F}/${file}`, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(","));

const textSmall = {
  texts: rows("texts.csv").map(([item, ...text]) => ({
    item,
    proposal: item.slice(0, item.indexOf(":")),
    text: text.join(","),
  })),
  ratings: rows("ratings.csv").map(([item, rater, grade]) => ({ item, rater, grade: Number(grade) })),
  truth: new Map(rows("truth.csv").map(([item, grade]) => [item, Number(grade)])),
};

describe("the clustering hypothesis per proposal", () => {
  it("equals the fixture's numpy/scipy values (Welch's ttest_ind, ttest_1samp) to 1e-10", () => {
    const expected = JSON.parse(readFileSync(`${F}/expected.json`, "utf8")).proposals;
    const table = clusteringHypothesis(textSmall.texts, textSmall.ratings, textSmall.truth);
    expect(table.map((p) => p.proposal)).toEqual(["prop-0", "prop-1", "prop-2"]);
    for (const row of table) {
      const want = expected[row.proposal];
      for (const key of ["items", "relevant", "flagged", "minGrades", "gold"] as const)
        expect(row[key], `${row.proposal} ${key}`).toBe(want[key]);
      for (const side of ["inner", "outer"] as const) {
        expect(row[side].pairs).toBe(want[side].pairs);
        expect(row[side].mean).toBeCloseTo(want[side].mean, 10);
        expect(row[side].sd).toBeCloseTo(want[side].sd, 10);
      }
      for (const key of [
        "tStatistic",
        "df",
        "pValue",
        "pooledVariance",
        "meanGrades",
        "truthDifference",
        "truthT",
        "truthP",
      ] as const) {
        if (want[key] === null) expect(row[key], `${row.proposal} ${key}`).toBeNull();
        else expect(row[key], `${row.proposal} ${key}`).toBeCloseTo(want[key], 10);
      }
    }
    // prop-2's relevant candidates read alike their not-relevant ones: the hypothesis fails there.
    expect(table.map((p) => p.flagged)).toEqual([false, false, true]);
  });

  it("labels by the median grade where there is no truth, and skips items without a text", () => {
    // a and b relevant (median 3 and 4), c not (median 1): one inner pair (a, b), two outer pairs.
    const texts = [
      { item: "p:a", proposal: "p", text: "graph neural networks" },
      { item: "p:b", proposal: "p", text: "graph networks" },
      { item: "p:c", proposal: "p", text: "medieval poetry" },
    ];
    const ratings = [
      { item: "p:a", rater: "x", grade: 3 },
      { item: "p:b", rater: "x", grade: 4 },
      { item: "p:c", rater: "x", grade: 1 },
      { item: "p:d", rater: "x", grade: 4 },
    ];
    const [row] = clusteringHypothesis(texts, ratings, null);
    expect(row).toMatchObject({ items: 3, relevant: 2, inner: { pairs: 1 }, outer: { pairs: 2, mean: 0 } });
    expect(row.inner.mean).toBeGreaterThan(0.5);
    expect(row).toMatchObject({
      tStatistic: null,
      pValue: null,
      flagged: false,
      gold: 0,
      pooledVariance: null,
    });
  });
});
