import { createRng, shuffled } from "../lib/random";
import { teamDraft } from "./team-draft";

/** Seeded random pairs of rankings: overlapping pools of different sizes, some lists exhausted before the depth. */
function randomCases(count: number) {
  const rng = createRng("team-draft-cases");
  return Array.from({ length: count }, (_, i) => {
    const pool = Array.from({ length: 5 + rng.int(30) }, (_, k) => `c${k}`);
    const listA = shuffled(pool, rng).slice(0, 1 + rng.int(pool.length));
    const listB = shuffled(pool, rng).slice(0, 1 + rng.int(pool.length));
    return { listA, listB, depth: 1 + rng.int(25), sessionId: `s${i}` };
  });
}

describe("teamDraft", () => {
  const cases = randomCases(400);

  it("keeps each team's picks in that team's own order, never repeats a candidate, stops at the depth or when both lists are spent", () => {
    for (const { listA, listB, depth, sessionId } of cases) {
      const { items, teams } = teamDraft(listA, listB, { depth, seed: 7, sessionId });
      expect(teams).toHaveLength(items.length);
      expect(new Set(items).size).toBe(items.length);
      const pool = new Set([...listA, ...listB]);
      expect(items.length).toBe(Math.min(depth, pool.size));
      for (const [team, list] of [
        ["A", listA],
        ["B", listB],
      ] as const) {
        const picks = items.filter((_, i) => teams[i] === team);
        // A team's picks come from its own list, in its order ...
        const positions = picks.map((c) => list.indexOf(c));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        // ... and each is its highest-ranked candidate not already shown when it drafted.
        for (const c of picks) {
          const at = items.indexOf(c);
          const before = new Set(items.slice(0, at));
          expect(list.find((x) => !before.has(x))).toBe(c);
        }
      }
    }
  });

  it("balances every prefix within one pick while both teams still have candidates", () => {
    for (const { listA, listB, depth, sessionId } of cases) {
      const { items, teams } = teamDraft(listA, listB, { depth, seed: 7, sessionId });
      let a = 0;
      let b = 0;
      for (let i = 0; i < items.length; i++) {
        const shown = new Set(items.slice(0, i));
        const bothLeft = listA.some((c) => !shown.has(c)) && listB.some((c) => !shown.has(c));
        if (teams[i] === "A") a++;
        else b++;
        if (bothLeft) expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
      }
    }
    // Two orders of one pool never run dry apart: then every prefix is balanced.
    const rng = createRng("one-pool");
    for (let i = 0; i < 200; i++) {
      const pool = Array.from({ length: 1 + rng.int(20) }, (_, k) => `c${k}`);
      const { teams } = teamDraft(shuffled(pool, rng), shuffled(pool, rng), {
        depth: 30,
        seed: "x",
        sessionId: `s${i}`,
      });
      let diff = 0;
      for (const t of teams) {
        diff += t === "A" ? 1 : -1;
        expect(Math.abs(diff)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("gives a session the same list every time, and other sessions or seeds other coins", () => {
    const listA = Array.from({ length: 20 }, (_, k) => `a${k}`);
    const listB = Array.from({ length: 20 }, (_, k) => `b${k}`);
    const draw = (seed: string | number, sessionId: string) =>
      teamDraft(listA, listB, { depth: 10, seed, sessionId, systems: ["baseline", "challenger"] });
    expect(draw(42, "s1")).toEqual(draw(42, "s1"));
    // Disjoint lists: the teams sequence is the coins; 30 sessions cannot all flip alike.
    const sequences = new Set(Array.from({ length: 30 }, (_, i) => draw(42, `s${i}`).teams.join()));
    expect(sequences.size).toBeGreaterThan(5);
    expect(new Set(Array.from({ length: 30 }, (_, i) => draw(i, "s1").teams.join())).size).toBeGreaterThan(5);
    expect(draw(42, "s1").teams.every((t) => t === "baseline" || t === "challenger")).toBe(true);
    // The seed and the session are not merely concatenated: (1, "2:3") and ("1:2", "3") differ somewhere.
    const joined = Array.from(
      { length: 20 },
      (_, i) => draw(`1${i}`, "2:3").teams.join() === draw(`1${i}:2`, "3").teams.join(),
    );
    expect(joined.every(Boolean)).toBe(false);
  });

  it("follows the coin on ties and the smaller team otherwise (a worked example)", () => {
    // A = [x, y, z], B = [y, x, w]. Whoever drafts first takes its top; the other team's top may be
    // gone already, so it takes its next: if A first, A:x, B:y, then a coin: A:z or B:w, then the other.
    const { items, teams } = teamDraft(["x", "y", "z"], ["y", "x", "w"], {
      depth: 4,
      seed: 1,
      sessionId: "s",
    });
    if (teams[0] === "A") expect(items.slice(0, 2)).toEqual(["x", "y"]);
    else expect(items.slice(0, 2)).toEqual(["y", "x"]);
    expect(teams[1]).not.toBe(teams[0]);
    expect(new Set(items.slice(2))).toEqual(new Set(["z", "w"]));
    expect(teams[3]).not.toBe(teams[2]);
  });

  it("refuses a depth below 1 and two systems with one key", () => {
    expect(() => teamDraft(["a"], ["b"], { depth: 0, seed: 1, sessionId: "s" })).toThrow(/depth/);
    expect(() => teamDraft(["a"], ["b"], { depth: 3, seed: 1, sessionId: "s", systems: ["x", "x"] })).toThrow(
      /different keys/,
    );
  });
});
