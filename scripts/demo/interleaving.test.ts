import { generateDemo } from "./generate";
import { simulateSessions } from "./sessions";
import { DEMO_INTERLEAVING, simulateInterleavedSessions } from "./interleaving";
import { sessionCredits } from "../interleaving/credit";
import { interleavingResult } from "../interleaving/results";
import { onlineReport } from "../online/report";
import { verdict } from "../../app/utils/format";
import { winRateVerdict } from "../../app/components/dashboards/interleaving-dashboard";

/**
 * The demo's point: 300 interleaved sessions reach a verdict (conveners prefer the challenger) that the
 * A/B experiment's 5,407 sessions do not reach with the intervals a daily look needs (sequential).
 */
describe("the demo's interleaving experiment", () => {
  const data = generateDemo();
  it("shows the challenger preferred while the A/B experiment with always-valid intervals is inconclusive", () => {
    const events = simulateInterleavedSessions(data);
    expect(new Set(events.map((e) => e.sessionId)).size).toBe(300);
    const credits = sessionCredits(events).sessions;
    for (const credit of ["click", "adopt"] as const) {
      const r = interleavingResult(credits, {
        control: "baseline",
        challenger: "challenger",
        credit,
        B: 1000,
        seed: DEMO_INTERLEAVING,
      });
      expect(winRateVerdict(r)).toBe("better");
      expect(r.pValue).toBeLessThan(0.05);
    }
    const ab = simulateSessions(data, { experiment: "reviewer-ranker-v2", seed: "assay-demo" });
    const report = onlineReport(ab, {
      weights: { A: 0.5, B: 0.5 },
      control: "A",
      intervals: true,
      intervalKind: "sequential",
      B: 200,
      seed: "reviewer-ranker-v2",
    });
    expect(
      report.comparisons.map((c) =>
        verdict(c.difference, c.ci, c.metric === "meanAdoptedRank" ? "lower" : "higher"),
      ),
    ).toEqual(["inconclusive", "inconclusive", "inconclusive", "inconclusive"]);
  });
});
