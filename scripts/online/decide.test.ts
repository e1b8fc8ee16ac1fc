import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEventsJsonl } from "./events";
import {
  decide,
  DEFAULT_DECISION_SETTINGS,
  prePeriodTotals,
  ratioSums,
  splitExperiments,
  type TestOutcome,
} from "./decide";
import { onlineMetrics, unitTotals } from "./report";

// Reference: test/fixtures/cuped-small (gbstats 0.8.0 on the sums of ranker-v3 and its 28-day pre-period;
// README there says how the sums and the values were made).
const dir = path.join(__dirname, "../../test/fixtures/cuped-small");
const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8"));
const { events } = parseEventsJsonl(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));

const GB_NAMES: Record<string, string> = {
  n: "count",
  mSum: "main_sum",
  mSquares: "main_sum_squares",
  dSum: "denominator_sum",
  dSquares: "denominator_sum_squares",
  mdProducts: "main_denominator_sum_product",
  mPreSum: "covariate_sum",
  mPreSquares: "covariate_sum_squares",
  dPreSum: "denominator_pre_sum",
  dPreSquares: "denominator_pre_sum_squares",
  mPostMPre: "main_covariate_sum_product",
  mPostDPre: "main_post_denominator_pre_sum_product",
  mPreDPost: "main_pre_denominator_post_sum_product",
  mPreDPre: "main_pre_denominator_pre_sum_product",
  dPostDPre: "denominator_post_denominator_pre_sum_product",
  unitsWithPrePeriod: "unitsWithPrePeriod",
};

function close(actual: number, wanted: number, what: string) {
  expect(Math.abs(actual - wanted), `${what}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(
    Math.max(1e-6 * Math.abs(wanted), 1e-12),
  );
}

function expectOutcome(o: TestOutcome, want: Record<string, number | number[]>, what: string) {
  expect(o.kind, what).not.toBe("none");
  const got = o as unknown as Record<string, number | number[]>;
  for (const key of ["effect", "pValue", "chanceToWin", "standardError", "stddev"])
    if (key in want) close(got[key] as number, want[key] as number, `${what}.${key}`);
  close((got.ci as number[])[0], (want.ci as number[])[0], `${what}.ci[0]`);
  close((got.ci as number[])[1], (want.ci as number[])[1], `${what}.ci[1]`);
}

describe("CUPED from an events file of three experiments (cuped-small)", () => {
  const split = splitExperiments(events);
  const totals = unitTotals(split.analysed);
  const pre = prePeriodTotals(split, 28);

  it("analyses the experiment that started last, from its first event, with the others as history", () => {
    expect(split.experiment).toBe(expected.experiment.key ?? "ranker-v3");
    expect(new Date(split.start).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(split.experiments).toEqual(["ranker-v1", "ranker-v2", "ranker-v3"]);
    expect(totals.excludedUnits).toBe(1);
  });

  it("gives every per-arm sum GrowthBook's SQL gives, pre-period included, exactly", () => {
    for (const metric of onlineMetrics)
      for (const arm of ["A", "B"]) {
        const sums = ratioSums(
          totals.units.filter((u) => u.arm === arm),
          metric,
          pre,
        ) as unknown as Record<string, number>;
        const want = expected.metrics[metric].sums[arm];
        for (const [ours, theirs] of Object.entries(GB_NAMES))
          expect(sums[ours], `${metric} ${arm} ${ours}`).toBe(want[theirs]);
      }
  });

  it("gives gbstats's unadjusted and CUPED t-tests and the interval narrowing", () => {
    const decisions = decide(totals.units, "A", { ...DEFAULT_DECISION_SETTINGS, cuped: true }, pre);
    expect(decisions.map((d) => d.metric)).toEqual([...onlineMetrics]);
    for (const d of decisions) {
      const want = expected.metrics[d.metric];
      for (const diff of ["absolute", "relative"] as const) {
        expectOutcome(d.unadjusted[diff], want.unadjusted.frequentist[diff], `${d.metric} plain ${diff}`);
        expectOutcome(d.cuped!.result[diff], want.cuped.frequentist[diff], `${d.metric} cuped ${diff}`);
      }
      close(d.cuped!.theta, want.cuped.theta, `${d.metric} theta`);
      close(d.cuped!.varianceReduction!, want.cupedGain.absolute.varianceReduction, `${d.metric} vr`);
      close(d.cuped!.intervalNarrowing!, want.cupedGain.absolute.intervalNarrowing, `${d.metric} narrowing`);
      expect(d.cuped!.unitsWithPrePeriod).toEqual({
        control: want.sums.A.unitsWithPrePeriod,
        treatment: want.sums.B.unitsWithPrePeriod,
      });
    }
  });

  it("gives gbstats's sequential and Bayesian results (inverse for mean adopted rank), with CUPED", () => {
    const seq = decide(
      totals.units,
      "A",
      { ...DEFAULT_DECISION_SETTINGS, cuped: true, intervals: "sequential" },
      pre,
    );
    const bayes = decide(
      totals.units,
      "A",
      { ...DEFAULT_DECISION_SETTINGS, cuped: true, engine: "bayesian" },
      pre,
    );
    for (let i = 0; i < seq.length; i++) {
      const want = expected.metrics[seq[i].metric].cuped;
      expectOutcome(seq[i].cuped!.result.relative, want.sequential.relative, `${seq[i].metric} seq`);
      expectOutcome(bayes[i].cuped!.result.relative, want.bayesian.relative, `${seq[i].metric} bayes`);
      expectOutcome(
        bayes[i].unadjusted.absolute,
        expected.metrics[seq[i].metric].unadjusted.bayesian.absolute,
        "b",
      );
    }
  });
});

describe("bad input names the field and computes nothing", () => {
  it("an experiment not in the file", () => {
    expect(() => splitExperiments(events, "ranker-v9")).toThrow(
      /^experiment: "ranker-v9" has no events.*ranker-v1/,
    );
  });
  it("a pre-period longer than the history", () => {
    const split = splitExperiments(events);
    expect(() => prePeriodTotals(split, 60)).toThrow(
      /^pre-period days: 60 days .* 59 whole day\(s\) of history/,
    );
    expect(prePeriodTotals(split, 59).size).toBeGreaterThan(0);
    expect(() => prePeriodTotals(split, 0)).toThrow(/^pre-period days: must be a whole number/);
  });
  it("one experiment alone has no history for CUPED", () => {
    const split = splitExperiments(events, "ranker-v1");
    expect(split.history.length).toBeGreaterThan(0);
    expect(() => prePeriodTotals(split, 1)).toThrow(/before the earliest event/);
  });
});
