import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatCi,
  formatCount,
  plural,
  formatDifference,
  formatLift,
  formatNumber,
  formatP,
  formatPp,
  formatRate,
  formatValue,
  verdict,
  verdictByP,
} from "./format";
import { directionText, metricDisplay, metricLabel, rowMeasure } from "./metrics-display";

/** The module puts no-break spaces between a number and its unit; the expectations are written with spaces. */
const plain = (s: string) => s.replace(/\u00a0/g, " ");

describe("formatNumber: three significant digits", () => {
  it("shows fractions with three significant digits and integers whole", () => {
    expect(formatNumber(0.976)).toBe("0.976");
    expect(formatNumber(0.9995)).toBe("1.00");
    expect(formatNumber(0.00095)).toBe("0.000950");
    expect(formatNumber(2.2345)).toBe("2.23");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(1)).toBe("1");
    expect(formatNumber(3)).toBe("3");
    expect(formatNumber(1e-12)).toBe("1.00e-12");
  });
  it("writes negatives with a minus sign and signs differences on request", () => {
    expect(formatNumber(-2.2)).toBe("−2.20");
    expect(formatNumber(0.5, { signed: true })).toBe("+0.500");
    expect(formatNumber(0, { signed: true })).toBe("0");
  });
  it("groups large values by thousands and shows missing values as a dash", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(12345.6)).toBe("12,346");
    expect(formatNumber(NaN)).toBe("—");
    expect(formatNumber(null)).toBe("—");
    expect(formatNumber(undefined)).toBe("—");
    expect(formatNumber(Infinity)).toBe("∞");
    expect(formatNumber(-Infinity)).toBe("−∞");
  });
});

describe("formatCount", () => {
  it("writes whole numbers with thousands separators", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(570)).toBe("570");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-1200)).toBe("−1,200");
    expect(formatCount(NaN)).toBe("—");
  });
});

describe("formatRate: rates as percentages", () => {
  it("shows one decimal from 1% on and two significant digits below", () => {
    expect(plain(formatRate(0.123))).toBe("12.3%");
    expect(plain(formatRate(0.0095))).toBe("0.95%");
    expect(plain(formatRate(0.00095))).toBe("0.095%");
    expect(plain(formatRate(0.5))).toBe("50.0%");
  });
  it("shows 0 and 1 exactly, and never rounds a value short of them onto them", () => {
    expect(plain(formatRate(0))).toBe("0%");
    expect(plain(formatRate(1))).toBe("100%");
    expect(plain(formatRate(0.9995))).toBe("> 99.9%");
    expect(plain(formatRate(0.99999))).toBe("> 99.9%");
    expect(plain(formatRate(1e-12))).toBe("< 0.01%");
  });
  it("shows missing values as a dash", () => {
    expect(plain(formatRate(NaN))).toBe("—");
    expect(plain(formatRate(null))).toBe("—");
  });
});

describe("formatPp and formatLift: signed differences", () => {
  it("writes differences of rates in percentage points with their sign", () => {
    expect(plain(formatPp(0.012))).toBe("+1.2 pp");
    expect(plain(formatPp(-0.0095))).toBe("−0.95 pp");
    expect(plain(formatPp(0))).toBe("0 pp");
    expect(plain(formatPp(-1e-12))).toBe("> −0.01 pp");
    expect(plain(formatPp(NaN))).toBe("—");
  });
  it("writes lifts as signed percentages", () => {
    expect(plain(formatLift(-0.022))).toBe("−2.2%");
    expect(plain(formatLift(0.153))).toBe("+15.3%");
    expect(plain(formatLift(2.5))).toBe("+250.0%");
    expect(plain(formatLift(Infinity))).toBe("+∞%");
    expect(plain(formatLift(null))).toBe("—");
  });
});

describe("formatP: p-values", () => {
  it("keeps the comparator with its number (no-break space)", () => {
    expect(formatP(0)).toBe("<\u00a00.001");
    expect(formatPp(0.012)).toBe("+1.2\u00a0pp");
  });
  it("shows two significant digits and < 0.001 below 0.001, never 0", () => {
    expect(plain(formatP(0))).toBe("< 0.001");
    expect(plain(formatP(1e-12))).toBe("< 0.001");
    expect(plain(formatP(0.00095))).toBe("< 0.001");
    expect(plain(formatP(0.001))).toBe("0.0010");
    expect(plain(formatP(0.0312))).toBe("0.031");
    expect(plain(formatP(0.5))).toBe("0.50");
    expect(plain(formatP(1))).toBe("1.0");
    expect(plain(formatP(NaN))).toBe("—");
  });
});

describe("formatValue, formatDifference and formatCi by kind", () => {
  it("uses the unit of the kind", () => {
    expect(plain(formatValue(0.123, "rate"))).toBe("12.3%");
    expect(plain(formatValue(2.345, "rank"))).toBe("2.35");
    expect(plain(formatValue(0.8123, "score"))).toBe("0.812");
    expect(plain(formatValue(12345, "count"))).toBe("12,345");
    expect(plain(formatDifference(0.012, "rate"))).toBe("+1.2 pp");
    expect(plain(formatDifference(-0.21, "rank"))).toBe("−0.210");
  });
  it("writes an interval in brackets in the unit of its value", () => {
    expect(plain(formatCi({ lower: 0.101, upper: 0.142 }, formatRate))).toBe("[10.1%, 14.2%]");
    expect(plain(formatCi({ lower: -0.012, upper: 0.034 }, formatPp))).toBe("[−1.2 pp, +3.4 pp]");
    expect(plain(formatCi(null, formatRate))).toBe("—");
    // No breakable space anywhere: "[−1.2 pp," never ends a line with "+3.4 pp]" on the next.
    expect(formatCi({ lower: -0.012, upper: 0.034 }, formatPp)).not.toMatch(/ /);
    expect(plain(formatCi({ lower: NaN, upper: 1 }, formatRate))).toBe("—");
  });
});

describe("verdict: better, worse or inconclusive by the metric's direction", () => {
  it("reads a difference clear of zero through the direction", () => {
    expect(verdict(0.02, { lower: 0.01, upper: 0.03 }, "higher")).toBe("better");
    expect(verdict(-0.02, { lower: -0.03, upper: -0.01 }, "higher")).toBe("worse");
    expect(verdict(-0.2, { lower: -0.3, upper: -0.1 }, "lower")).toBe("better");
    expect(verdict(0.2, { lower: 0.1, upper: 0.3 }, "lower")).toBe("worse");
  });
  it("calls an interval crossing or touching zero, or no interval, inconclusive", () => {
    expect(verdict(0.02, { lower: -0.01, upper: 0.05 }, "higher")).toBe("inconclusive");
    expect(verdict(0.02, { lower: 0, upper: 0.05 }, "higher")).toBe("inconclusive");
    expect(verdict(0.02, null, "higher")).toBe("inconclusive");
    expect(verdict(null, { lower: 0.01, upper: 0.05 }, "lower")).toBe("inconclusive");
  });
});

describe("metricDisplay: one registry of names, kinds and directions", () => {
  it("names the report's metrics for readers", () => {
    expect(metricDisplay("Success@10")).toMatchObject({
      code: "Success@10",
      label: "HR@10",
      kind: "rate",
      direction: "higher",
    });
    expect(metricLabel("RR@10")).toBe("MRR@10");
    expect(metricLabel("Success(g=2)@10")).toBe("HR(≥2)@10");
    expect(metricDisplay("adoptionRate")).toMatchObject({
      label: "Adoption rate",
      kind: "rate",
      direction: "higher",
    });
    expect(metricDisplay("sessionSuccessRate").label).toBe("Session success rate");
    expect(metricDisplay("ctr").label).toBe("CTR");
    expect(metricDisplay("nDCG@10")).toMatchObject({ kind: "score", direction: "higher" });
    expect(metricDisplay("Coverage@10").kind).toBe("rate");
    expect(metricDisplay("Judged@10").kind).toBe("rate");
    expect(metricDisplay("PoolRecall").label).toBe("Pool recall");
  });
  it("knows which metrics are better lower", () => {
    expect(metricDisplay("meanAdoptedRank")).toMatchObject({
      label: "Mean adopted rank",
      kind: "rank",
      direction: "lower",
    });
    expect(metricDisplay("Rank(g=1)")).toMatchObject({ kind: "rank", direction: "lower" });
    expect(directionText("lower")).toBe("lower is better");
  });
  it("shows an unknown name as itself", () => {
    expect(metricDisplay("Foo@3")).toEqual({
      code: "Foo@3",
      label: "Foo@3",
      kind: "score",
      direction: "higher",
    });
  });
});

describe("verdictByP: a test without an interval", () => {
  it("counts a significant difference by its sign and direction, the rest inconclusive", () => {
    expect(verdictByP(0.1, 0.01, "higher")).toBe("better");
    expect(verdictByP(0.1, 0.01, "lower")).toBe("worse");
    expect(verdictByP(-0.1, 0.2, "higher")).toBe("inconclusive");
    expect(verdictByP(-0.1, null, "higher")).toBe("inconclusive");
  });
});

describe("rowMeasure: the every-figure rows' names", () => {
  it("names a difference row after its metric and keeps its kind", () => {
    expect(rowMeasure("meanAdoptedRank difference")).toMatchObject({
      label: "Mean adopted rank difference",
      kind: "rank",
      direction: "lower",
      isDifference: true,
    });
    expect(rowMeasure("Success@10")).toMatchObject({ label: "HR@10", isDifference: false });
  });
});

describe("plural", () => {
  it("agrees the noun with the count, with thousands separators", () => {
    expect(plural(1, "row")).toBe("1 row");
    expect(plural(0, "row")).toBe("0 rows");
    expect(plural(12345, "row")).toBe("12,345 rows");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
  });
});

describe("formatDate and formatDateTime: in UTC, named, never wrapped", () => {
  const nb = (text: string) => text.replace(/ /g, "\u00a0");
  it("shows a day and a minute in UTC whatever the input's offset", () => {
    expect(formatDate("2026-11-27T07:49:59Z")).toBe(nb("27 Nov 2026"));
    expect(formatDateTime("2026-11-27T07:49:59Z")).toBe(`${nb("27 Nov 2026")}, 07:49\u00a0UTC`);
    expect(formatDateTime(new Date("2026-11-28T00:30:00+02:00"))).toBe(
      `${nb("27 Nov 2026")}, 22:30\u00a0UTC`,
    );
  });
  it("shows — for no date or one that cannot be read", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDateTime(undefined)).toBe("—");
    expect(formatDateTime("not a date")).toBe("—");
  });
});
