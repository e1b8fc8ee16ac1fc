import { createRng, normal, type Rng } from "../lib/random";
import type { SessionCredit } from "./credit";
import { teamDraftMultileave } from "./multileave";

/** A simulated system: it ranks by a candidate's relevance plus Gaussian noise of this spread. */
export interface SimulatedSystem {
  system: string;
  noise: number;
}

export interface MultileaveSimulation {
  systems: readonly SimulatedSystem[];
  units: number;
  sessionsPerUnit: number;
  /** Candidates per proposal. */
  pool: number;
  depth: number;
  seed: string | number;
}

/** Click probability of an examined candidate by relevance grade 0, 1, 2. */
const ATTRACTION = [0.05, 0.3, 0.7];

/** Examination probability at a 1-based position: a position-based model, 1/√rank. */
const examined = (position: number) => 1 / Math.sqrt(position);

function rankBy(rng: Rng, grades: readonly number[], noise: number): string[] {
  const scored = grades.map((g, c) => ({ id: `c${c}`, score: g + noise * normal(rng) }));
  return scored.sort((a, b) => b.score - a.score).map((s) => s.id);
}

/**
 * Sessions of a team-draft multileaved experiment whose systems' quality is known: each session is a
 * fresh proposal with candidates of relevance 0, 1 or 2 (probabilities ½, ⅓, ⅙); each system ranks
 * them by relevance plus its own noise (less noise = a better system); clicks follow a position-based
 * model (examination 1/√position, then a click with ATTRACTION[grade]). Credit is click credit, as
 * the team draft counts it: each clicked candidate goes to the team that placed it.
 */
export function simulateMultileaving(sim: MultileaveSimulation): SessionCredit[] {
  const rng = createRng(`simulate:${sim.seed}`);
  const sessions: SessionCredit[] = [];
  for (let u = 0; u < sim.units; u++)
    for (let s = 0; s < sim.sessionsPerUnit; s++) {
      const grades = Array.from({ length: sim.pool }, () => {
        const x = rng.next();
        return x < 1 / 2 ? 0 : x < 5 / 6 ? 1 : 2;
      });
      const lists = sim.systems.map(({ system, noise }) => ({ system, list: rankBy(rng, grades, noise) }));
      const session = `u${u}s${s}`;
      const { items, teams } = teamDraftMultileave(lists, {
        depth: sim.depth,
        seed: sim.seed,
        sessionId: session,
      });
      const click: Record<string, number> = {};
      items.forEach((id, i) => {
        if (rng.next() < examined(i + 1) && rng.next() < ATTRACTION[grades[Number(id.slice(1))]])
          click[teams[i]] = (click[teams[i]] ?? 0) + 1;
      });
      sessions.push({ unit: `u${u}`, session, click, adopt: {} });
    }
  return sessions;
}
