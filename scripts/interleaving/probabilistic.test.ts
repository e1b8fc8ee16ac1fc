import { createRng, shuffled } from "../lib/random";
import { marginalisedOutcome, positionPosteriors, probabilisticInterleave } from "./probabilistic";

describe("probabilistic interleaving", () => {
  it("marginalises a small case as worked by hand", () => {
    // A ranks d1 d2 d3, B ranks d2 d3 d1; shown d2 d1 d3; τ = 3 (weights 1, 1/8, 1/27 by rank).
    // Position 1, all three unshown (one normaliser for both): P_A(d2) ∝ 1/8, P_B(d2) ∝ 1 → 8/9.
    // Position 2, {d1, d3} left: P_A(d1) = 1 / (1 + 1/27) = 27/28; P_B(d1) = (1/27) / (1/8 + 1/27) = 8/35
    //   → (8/35) / (27/28 + 8/35) = 32/167.
    // Position 3: d3 alone, probability 1 under both → 1/2.
    const post = positionPosteriors(["d2", "d1", "d3"], ["d1", "d2", "d3"], ["d2", "d3", "d1"]);
    expect(post[0]).toBeCloseTo(8 / 9, 14);
    expect(post[1]).toBeCloseTo(32 / 167, 14);
    expect(post[2]).toBeCloseTo(1 / 2, 14);
    // Clicks on positions 1 and 2: B wins if both are B's (8/9 · 32/167), A if both are A's
    // (1/9 · 135/167), otherwise a tie: P(B) = 256/1503, P(A) = 135/1503, E[outcome] = 121/1503.
    const { a, b } = marginalisedOutcome(post, [0, 1]);
    expect(b).toBeCloseTo(256 / 1503, 14);
    expect(a).toBeCloseTo(135 / 1503, 14);
    // No click: no preference; one click: its posterior.
    expect(marginalisedOutcome(post, [])).toEqual({ a: 0, b: 0 });
    expect(marginalisedOutcome(post, [2])).toEqual({ a: 0.5, b: 0.5 });
  });

  it("draws each candidate once, the same list for one session, and as the two softmax rankers say", () => {
    const listA = ["d1", "d2", "d3", "d4"];
    const listB = ["d4", "d3", "d5"];
    const once = probabilisticInterleave(listA, listB, { depth: 10, seed: 3, sessionId: "s" });
    expect(probabilisticInterleave(listA, listB, { depth: 10, seed: 3, sessionId: "s" })).toEqual(once);
    expect(once.items).toHaveLength(5);
    expect(new Set(once.items).size).toBe(5);
    // First position: ½ P_A + ½ P_B. A's complete ranking is d1 d2 d3 d4 d5, B's d4 d3 d5 d1 d2.
    const w = [1, 2, 3, 4, 5].map((r) => r ** -3);
    const z = w.reduce((s, x) => s + x, 0);
    const expectedD1 = (w[0] / z + w[3] / z) / 2;
    let d1 = 0;
    let byA = 0;
    const N = 4000;
    for (let s = 0; s < N; s++) {
      const { items, teams } = probabilisticInterleave(listA, listB, {
        depth: 1,
        seed: 3,
        sessionId: `s${s}`,
      });
      if (items[0] === "d1") d1++;
      if (teams[0] === "A") byA++;
    }
    // Binomial standard errors are under 0.008: four of them is 0.032.
    expect(Math.abs(d1 / N - expectedD1)).toBeLessThan(0.032);
    expect(Math.abs(byA / N - 0.5)).toBeLessThan(0.032);
  });

  it("finds no preference when clicks ignore the list, and the better ranker when clicks follow relevance", () => {
    const rng = createRng("pi-fidelity");
    const pool = Array.from({ length: 10 }, (_, i) => `d${i}`);
    const relevant = new Set(["d0", "d1", "d2"]);
    let random = 0;
    let informed = 0;
    const N = 3000;
    for (let s = 0; s < N; s++) {
      const good = [...pool]; // the relevant three first
      const poor = shuffled(pool, rng);
      const { items } = probabilisticInterleave(good, poor, { depth: 10, seed: 9, sessionId: `s${s}` });
      const post = positionPosteriors(items, good, poor);
      const at = (keep: (c: string, r: number) => boolean) =>
        items.flatMap((c, r) => (keep(c, r) ? [r] : []));
      const noise = marginalisedOutcome(
        post,
        at(() => rng.next() < 0.3),
      );
      random += noise.b - noise.a;
      const follow = marginalisedOutcome(
        post,
        at((c, r) => relevant.has(c) && rng.next() < 1 / (r + 1)),
      );
      informed += follow.b - follow.a;
    }
    // E[outcome] is exactly 0 under clicks independent of the list (fair coins); its standard error
    // here is under 0.02. B is the shuffled ranker, so informed clicks favour A (a negative mean).
    expect(Math.abs(random / N)).toBeLessThan(0.06);
    expect(informed / N).toBeLessThan(-0.2);
  });

  it("refuses a bad depth, one system twice and a candidate in neither list", () => {
    expect(() => probabilisticInterleave(["a"], ["b"], { depth: 0, seed: 1, sessionId: "s" })).toThrow(
      /depth/,
    );
    expect(() =>
      probabilisticInterleave(["a"], ["b"], { depth: 1, seed: 1, sessionId: "s", systems: ["X", "X"] }),
    ).toThrow(/X twice/);
    expect(() => positionPosteriors(["z"], ["a"], ["b"])).toThrow(/candidate z is in neither/);
  });
});
