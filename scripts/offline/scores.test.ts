import { generateDemo } from "../demo/generate";
import { offlineReport, type OfflineInput } from "./report";
import { packOfflineInput, unpackOfflineInput } from "./pack";

/** The demo data as report input, with each list's scores (the baseline's) or none (the challenger's). */
function demoInput(): OfflineInput {
  const data = generateDemo({ proposals: 60, candidates: 600, seed: "offline-scores" });
  const gold = new Map<string, Set<string>>();
  for (const g of data.gold) {
    if (!gold.has(g.proposal)) gold.set(g.proposal, new Set());
    gold.get(g.proposal)!.add(g.candidate);
  }
  return {
    proposals: data.proposals.map((p) => ({ id: p.externalId, title: p.title, subject: p.subject })),
    gold,
    systems: data.systems.map((s, i) => {
      const lists = data.lists.filter((l) => l.system === s.key);
      return {
        key: s.key,
        name: s.name,
        lists: new Map(
          lists.map((l) => [l.proposal, new Map([[l.variant, l.items.map((x) => x.candidate)]])]),
        ),
        ...(i === 0
          ? {
              scores: new Map(
                lists.map((l) => [l.proposal, new Map([[l.variant, l.items.map((x) => x.score)]])]),
              ),
            }
          : {}),
      };
    }),
    catalog: new Set(data.candidates.map((c) => c.externalId)),
  };
}

describe("score and exposure sections of the offline report", () => {
  const input = demoInput();
  const report = offlineReport(input, { ks: [5, 10], B: 50, seed: 3 });
  const [scored, unscored] = report.systems;

  it("gives score statistics and bands for a scored system, and says so for one without scores", () => {
    expect(scored.scoreStats.scored).toBe(true);
    if (scored.scoreStats.scored) {
      expect(scored.scoreStats.depth).toBe(10);
      expect(scored.scoreStats.overall.count).toBe(10 * scored.proposals);
      expect(Object.keys(scored.scoreStats.subjects)).toEqual(Object.keys(scored.subjects));
      // Lists are in score order, so the mean score falls with the rank.
      const byRank = scored.scoreStats.overall.meanByRank as number[];
      expect(byRank.every((v, r) => r === 0 || v <= byRank[r - 1])).toBe(true);
    }
    expect(scored.scoreBands!.bands.reduce((n, b) => n + b.candidates, 0)).toBe(
      input.systems[0].lists.size * 50,
    );
    expect(unscored.scoreStats).toEqual({ scored: false, depth: 10 });
    expect(unscored.scoreBands).toBeNull();
  });

  it("gives exposure per K overall and per subject", () => {
    expect(scored.exposure.overall.predictionCoverage).toBe(1);
    expect(scored.exposure.overall.byK.map((x) => x.k)).toEqual([5, 10]);
    expect(Object.keys(scored.exposure.subjects)).toEqual(Object.keys(scored.subjects));
    const at10 = scored.exposure.overall.byK[1];
    for (const v of [at10.longTailShare, at10.gini, at10.otherSubjectShare])
      expect(v).toBeGreaterThanOrEqual(0);
    expect(at10.gini).toBeLessThan(1);
  });

  it("uses the given bands and records them; a worker's packed input gives the same report", () => {
    const banded = offlineReport(input, { ks: [10], B: 20, bands: [0.9, 0.5] });
    expect(banded.parameters.bands).toEqual([0.9, 0.5]);
    expect(banded.systems[0].scoreBands).toMatchObject({ method: "given", thresholds: [0.5, 0.9] });
    expect(banded.systems[0].scoreBands!.bands).toHaveLength(3);
    expect(
      JSON.stringify(
        offlineReport(unpackOfflineInput(packOfflineInput(input)), { ks: [5, 10], B: 50, seed: 3 }),
      ),
    ).toBe(JSON.stringify(report));
  });
});
