import { generateDemo, type DemoData } from "./generate";
import { DEMO_MULTILEAVE, hybridLists, simulateMultileavedSessions } from "./multileave";
import { sessionCredits } from "../interleaving/credit";
import { multileavingFigures } from "../interleaving/multileave-results";

/**
 * The demo's multileaving experiment: a third system fused from the other two by reciprocal rank fusion
 * (checked by hand on two short lists), and 300 multileaved sessions whose Copeland ranking by click
 * credit puts the challenger first and the baseline last, each pair of the three compared.
 */
describe("the demo's multileaving experiment", () => {
  it("fuses the two systems' lists by reciprocal rank: Σ 1/(60 + rank), the slower latency + 4 ms", () => {
    const item = (candidate: string, rank: number) => ({ rank, candidate, score: null });
    const data = {
      lists: [
        {
          system: "baseline",
          proposal: "P",
          variant: "default",
          latencyMs: 30,
          items: [item("a", 1), item("b", 2), item("c", 3)],
        },
        {
          system: "challenger",
          proposal: "P",
          variant: "default",
          latencyMs: 90.5,
          items: [item("c", 1), item("a", 2), item("d", 3)],
        },
      ],
    } as unknown as DemoData;
    const [hybrid] = hybridLists(data);
    // a: 1/61 + 1/62; c: 1/63 + 1/61; b: 1/62; d: 1/63. Three positions, as the longer list.
    expect(hybrid.items.map((i) => i.candidate)).toEqual(["a", "c", "b"]);
    expect(hybrid.items[0].score).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(hybrid.items[2].score).toBeCloseTo(1 / 62, 15);
    expect(hybrid.latencyMs).toBe(94.5);
  });

  it("ranks the challenger first and the baseline last by click credit, over 300 sessions of three teams", () => {
    const data = generateDemo();
    const events = simulateMultileavedSessions(data, hybridLists(data));
    expect(new Set(events.map((e) => e.sessionId)).size).toBe(300);
    const teams = new Set(events.flatMap((e) => e.teams ?? []));
    expect(teams).toEqual(new Set(["baseline", "hybrid", "challenger"]));
    const figures = multileavingFigures({
      sessions: sessionCredits(events).sessions,
      systems: ["baseline", "hybrid", "challenger"],
      B: 200,
      seed: DEMO_MULTILEAVE,
    });
    expect(figures.click.ranking.map((r) => r.system)).toEqual(["challenger", "hybrid", "baseline"]);
    expect(figures.click.pairs).toHaveLength(6);
    const overBaseline = figures.click.pairs.find(
      (p) => p.system === "challenger" && p.other === "baseline",
    )!;
    expect(overBaseline.pValue).toBeLessThan(0.05);
  });
});
