import { describe, expect, it } from "vitest";
import { cdfWithBand, sharedHistogram } from "./chart-data";

describe("sharedHistogram", () => {
  it("bins every series on the same bins and counts each series apart (never stacked)", () => {
    const bins = sharedHistogram([
      { name: "A", values: [1, 1, 2, 3, 10] },
      { name: "B", values: [2, 2, 2, 9] },
    ]);
    const a = bins.filter((b) => b.series === "A");
    const b = bins.filter((b) => b.series === "B");
    expect(a.map((x) => [x.from, x.to])).toEqual(b.map((x) => [x.from, x.to]));
    expect(a.reduce((n, x) => n + x.count, 0)).toBe(5);
    expect(b.reduce((n, x) => n + x.count, 0)).toBe(4);
    expect(a.find((x) => x.from === 2)!.count).toBe(1);
    expect(b.find((x) => x.from === 2)!.count).toBe(3);
    // The greatest value falls in the last bin, not past it.
    expect(a.at(-1)!.count).toBe(1);
  });

  it("widens the bins to whole numbers so there are at most maxBins", () => {
    const bins = sharedHistogram([{ name: "A", values: Array.from({ length: 100 }, (_, i) => i + 1) }], 25);
    expect(bins.length).toBeLessThanOrEqual(25);
    expect(bins[0].to - bins[0].from).toBe(4);
    expect(bins.reduce((n, x) => n + x.count, 0)).toBe(100);
    expect(sharedHistogram([{ name: "A", values: [] }])).toEqual([]);
  });
});

describe("cdfWithBand", () => {
  it("steps once per distinct value over all cases, missing ones included, with the DKW band", () => {
    const points = cdfWithBand([{ name: "A", values: [3, 1, 3, 7], total: 5 }]);
    expect(points.map((p) => [p.value, p.share])).toEqual([
      [1, 0.2],
      [3, 0.6],
      [7, 0.8],
    ]);
    // ε = √(ln 40 / 10) = 0.607 over 5 cases: the band is clipped to [0, 1].
    expect(points[1].lower).toBe(0);
    expect(points[1].upper).toBe(1);
    const [first] = cdfWithBand([{ name: "B", values: Array.from({ length: 50 }, (_, i) => i), total: 100 }]);
    const epsilon = Math.sqrt(Math.log(40) / 200);
    expect(first.share).toBe(0.01);
    expect(first.upper).toBeCloseTo(0.01 + epsilon, 12);
  });
});
