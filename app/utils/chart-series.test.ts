import { describe, expect, it } from "vitest";
import { cumulativeDailyWithIntervals, type DailySession } from "../../scripts/online/daily-intervals";
import { dailySeries } from "~/components/dashboards/online/daily-charts";
import { examinationSeries } from "~/components/dashboards/clicks/examination";
import { percentTick, plottedSeries, seriesScale, untilLastPoint } from "./chart-series";

const session = (unit: string, arm: string, day: string, shown: number, clicked: number): DailySession => ({
  unit,
  arm,
  day,
  shown,
  clicked,
  adopted: 0,
  adoptedRankSum: 0,
});

/** The last x of each series' path, as Plot draws a line through a series' points in order. */
const pathEnds = (points: { arm: string; day: Date }[]) =>
  Object.fromEntries(points.map((p) => [p.arm, p.day.toISOString().slice(0, 10)]));

describe("cumulative day-by-day lines", () => {
  // Arm B stops after the 2nd; A goes on to the 5th, with no session on the 4th.
  const daily = cumulativeDailyWithIntervals([
    session("u1", "A", "2026-03-01", 10, 2),
    session("u2", "B", "2026-03-01", 10, 3),
    session("u3", "B", "2026-03-02", 10, 1),
    session("u4", "A", "2026-03-03", 10, 4),
    session("u5", "A", "2026-03-05", 10, 1),
  ]);

  it("ends each arm's line at its last data point, not flat to the last day of the others", () => {
    const { points } = dailySeries(daily, "ctr");
    expect(pathEnds(points)).toEqual({ A: "2026-03-05", B: "2026-03-02" });
    // The days in between keep their value as it stood (A had no session on the 4th: no day 4 at all).
    expect(points.filter((p) => p.arm === "A").map((p) => p.day.toISOString().slice(0, 10))).toEqual([
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
      "2026-03-05",
    ]);
  });

  it("the legend lists exactly the arms drawn, in the colours the marks use", () => {
    const { points, series } = dailySeries(daily, "ctr");
    expect(series.map((s) => s.key)).toEqual([...new Set(points.map((p) => p.arm))]);
    const scale = seriesScale(series);
    expect(scale.domain).toEqual(["A", "B"]);
    expect(scale.range).toEqual(series.map((s) => s.color));
    expect(new Set(scale.range).size).toBe(2);
  });

  it("a snapshot without session counts ends each line at its last value", () => {
    const old = daily.map(({ day, arms }) => ({ day, arms }));
    const { points } = dailySeries(old, "ctr");
    expect(points).toHaveLength(daily.length * 2);
  });
});

describe("plottedSeries and untilLastPoint", () => {
  it("leaves out a series with no value, keeps the given order, and labels and dashes from one place", () => {
    const rows = [
      { k: "worse", v: 1 },
      { k: "better", v: 2 },
      { k: "inconclusive", v: null },
    ];
    const series = plottedSeries(rows, (r) => r.k, {
      hasValue: (r) => r.v !== null,
      order: ["better", "worse", "inconclusive"],
      label: (k) => k.toUpperCase(),
      dash: (k) => (k === "worse" ? "4 3" : null),
    });
    expect(series.map((s) => [s.key, s.label, s.dash])).toEqual([
      ["better", "BETTER", null],
      ["worse", "WORSE", "4 3"],
    ]);
  });

  it("drops a series with no data point and everything after each series' last one", () => {
    const kept = untilLastPoint(
      [
        { s: "a", x: 1, data: true },
        { s: "b", x: 1, data: false },
        { s: "a", x: 2, data: false },
        { s: "a", x: 3, data: true },
        { s: "a", x: 4, data: false },
      ],
      (p) => p.s,
      (p) => p.data,
    );
    expect(kept.map((p) => `${p.s}${p.x}`)).toEqual(["a1", "a2", "a3"]);
  });

  it("names PBM's solid curve and each arm's dashed depth in the examination legend", () => {
    const series = examinationSeries({
      examination: [{ rank: 1, relative: 1, gamma: 0.9 }],
      displayDepth: [
        { arm: "control", depth: 7 },
        { arm: "challenger", depth: null },
      ],
    } as unknown as Parameters<typeof examinationSeries>[0]);
    expect(series.map((s) => [s.label, s.dash])).toEqual([
      ["PBM examination", null],
      ["control: display depth", "4 3"],
    ]);
  });

  it("adds the curve's interval band to the legend only when the curve has intervals", () => {
    const fit = (relativeCi: { lower: number; upper: number } | undefined) =>
      ({
        examination: [{ rank: 1, relative: 1, fitted: 0.9, relativeCi }],
        displayDepth: [],
      }) as unknown as Parameters<typeof examinationSeries>[0];
    expect(examinationSeries(fit({ lower: 1, upper: 1 })).map((s) => [s.label, s.band ?? false])).toEqual([
      ["PBM examination", false],
      ["95% interval (PBM refitted per resample)", true],
    ]);
    // A snapshot frozen before the intervals existed: no band drawn, none named.
    expect(examinationSeries(fit(undefined)).map((s) => s.label)).toEqual(["PBM examination"]);
  });

  it("writes a percent tick with its sign", () => {
    expect([0, 20, 100].map(percentTick)).toEqual(["0%", "20%", "100%"]);
  });
});
