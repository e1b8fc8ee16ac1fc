import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ResultsTable, type Decisions } from "./results-table";
import type { Json } from "~/utils/json-type";

/** A frequentist outcome with just what the table reads. */
const outcome = (effect: number, half: number) => ({
  kind: "frequentist" as const,
  effect,
  ci: [effect - half, effect + half] as [number, number],
  pValue: 0.2,
  se: half / 1.96,
});
const decision = (metric: string, intervalNarrowing: number) => ({
  arm: "B",
  control: "A",
  metric,
  inverse: false,
  baseline: 0.12,
  variation: 0.13,
  unadjusted: { relative: outcome(0.05, 0.04), absolute: outcome(0.01, 0.008) },
  cuped: {
    theta: 0.4,
    unitsWithPrePeriod: { control: 30, treatment: 30 },
    result: { relative: outcome(0.05, 0.03), absolute: outcome(0.01, 0.006) },
    varianceReduction: intervalNarrowing,
    intervalNarrowing,
  },
});

it("says CUPED widened an interval when it did, never 'narrowed by' a negative share", () => {
  const decisions = {
    analysis: { engine: "frequentist", cuped: true, prePeriodDays: 28 },
    prePeriod: { from: "2026-10-04", to: "2026-11-01" },
    cupedProblem: null,
    frequentist: [decision("ctr", 0.3), decision("adoptionRate", -0.00008)],
    bayesian: [],
  } as unknown as Json<Decisions>;
  const html = renderToStaticMarkup(createElement(ResultsTable, { decisions }));
  expect(html).toContain("CUPED narrowed the interval by 30.0%");
  expect(html).toContain("CUPED widened the interval by");
  expect(html).not.toMatch(/narrowed the interval by [^<]*−/);
});
