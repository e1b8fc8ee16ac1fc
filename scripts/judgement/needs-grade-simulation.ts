import { createRng, shuffled, type Rng } from "../lib/random";
import { lowerMedian } from "../stats/quantile";
import { needsAnotherGrade, type PairGrades, type SystemLists } from "./needs-grade";

export interface SimulationOptions {
  seed: string | number;
  proposals?: number;
  /** Candidates per proposal, and the depth K of the systems' lists (the pool is their union). */
  candidates?: number;
  k?: number;
  /** Grades each pair could get at most. */
  maxGrades?: number;
  /** Pairs asked for one more grade per round. */
  batch?: number;
  /** The accuracy to reach, as a share of the all-grades accuracy (default 0.95, as `suggestedN`'s rule). */
  targetShare?: number;
  /**
   * What one request buys. "pair" (default, what `requestMoreGrades` does since its assignments are
   * scoped to the chosen pairs): one more grade of each chosen pair. "proposal" (what it did before):
   * a new expert for each chosen pair's proposal, who grades the proposal's whole pool, so every pair
   * of those proposals gets one more grade and the grades are counted.
   */
  requests?: "pair" | "proposal";
}

export interface SimulationRun {
  /** After each round: grades given so far and the share of pairs whose label is the truth. */
  rounds: { grades: number; accuracy: number }[];
  /** The grades given when the accuracy first reached the target share of the all-grades accuracy; null if never. */
  gradesToTarget: number | null;
  /** The grades given when the accuracy first reached the all-grades accuracy itself; null if never. */
  gradesToAll: number | null;
}

export interface Simulation {
  pairs: number;
  /** Accuracy of the labels with every pair's `maxGrades` grades, and how many grades that is. */
  allGrades: { grades: number; accuracy: number };
  uniform: SimulationRun;
  uncertain: SimulationRun;
}

interface World {
  pairs: (PairGrades & { truth: number; pool: number[] })[];
  systems: SystemLists[];
}

/**
 * A seeded campaign with known truth: two systems (one ranks by the truth with little noise, one with
 * much) list K of each proposal's candidates; every pooled pair has a truth grade and up to `maxGrades`
 * expert grades (the truth, off by one with chance 0.35 and by two with 0.05, kept on 1–4). Every pair
 * starts with one grade; each round asks `batch` pairs for one more (or, with `requests: "proposal"`,
 * their proposals for one more grade of every pair), either uniformly (the pairs with fewest grades, in a
 * seeded order) or by `needsAnotherGrade`'s ranking; both stop when no pair has grades left to give.
 */
export function simulateGradeRequests(options: SimulationOptions): Simulation {
  const world = simulatedWorld(options);
  const maxGrades = options.maxGrades ?? 5;
  const batch = options.batch ?? Math.ceil(world.pairs.length / 10);
  const accuracy = (grades: (p: World["pairs"][number]) => readonly number[]) =>
    world.pairs.filter((p) => lowerMedian(grades(p)) === p.truth).length / world.pairs.length;
  const all = { grades: world.pairs.length * maxGrades, accuracy: accuracy((p) => p.pool) };
  const run = (pick: (state: PairGrades[], rng: Rng) => PairGrades[]): SimulationRun => {
    const rng = createRng(`${options.seed}:requests`);
    const state = world.pairs.map((p) => ({ ...p, grades: p.pool.slice(0, 1) }));
    const rounds = [
      { grades: state.length, accuracy: accuracy((p) => state[world.pairs.indexOf(p)].grades) },
    ];
    const byItem = new Map(state.map((p) => [p.item, p]));
    for (;;) {
      const open = state.filter((p) => p.grades.length < maxGrades);
      if (open.length === 0) break;
      for (const own of asked(pick(open, rng).slice(0, batch), open, options.requests ?? "pair"))
        own.grades = own.pool.slice(0, own.grades.length + 1);
      const given = state.reduce((s, p) => s + p.grades.length, 0);
      rounds.push({ grades: given, accuracy: accuracy((p) => byItem.get(p.item)!.grades) });
    }
    const target = (options.targetShare ?? 0.95) * all.accuracy;
    const reach = (level: number) => rounds.find((r) => r.accuracy >= level)?.grades ?? null;
    return { rounds, gradesToTarget: reach(target), gradesToAll: reach(all.accuracy) };
  };
  const uniform = run((open, rng) => shuffled(open, rng).sort((a, b) => a.grades.length - b.grades.length));
  const uncertain = run((open) => {
    const ranked = needsAnotherGrade(
      world.pairs.map((p) => ({ ...p, grades: open.find((o) => o.item === p.item)?.grades ?? p.grades })),
      world.systems,
      options.k ?? 10,
    );
    const isOpen = new Set(open.map((p) => p.item));
    return ranked.filter((r) => isOpen.has(r.item)).map((r) => open.find((o) => o.item === r.item)!);
  });
  return { pairs: world.pairs.length, allGrades: all, uniform, uncertain };
}

/** The pairs one round's requests grade once more: the chosen ones, or every open pair of their proposals. */
function asked<P extends PairGrades>(chosen: PairGrades[], open: P[], requests: "pair" | "proposal"): P[] {
  if (requests === "pair") return chosen.map((c) => open.find((o) => o.item === c.item)!);
  const proposals = new Set(chosen.map((c) => c.proposal));
  return open.filter((o) => proposals.has(o.proposal));
}

function simulatedWorld(options: SimulationOptions): World {
  const rng = createRng(options.seed);
  const proposals = options.proposals ?? 30;
  const candidates = options.candidates ?? 20;
  const k = options.k ?? 10;
  const maxGrades = options.maxGrades ?? 5;
  const pairs: World["pairs"] = [];
  const lists = [new Map<string, string[]>(), new Map<string, string[]>()];
  for (let q = 0; q < proposals; q++) {
    const proposal = `p${q}`;
    const truth = Array.from({ length: candidates }, () => 1 + rng.int(4));
    const ids = truth.map((_, c) => c);
    [0.5, 2].forEach((noise, s) => {
      const score = ids.map((c) => truth[c] + noise * (rng.next() * 2 - 1) * 2);
      lists[s].set(
        proposal,
        [...ids]
          .sort((a, b) => score[b] - score[a])
          .slice(0, k)
          .map((c) => `c${c}`),
      );
    });
    const pooled = new Set([...lists[0].get(proposal)!, ...lists[1].get(proposal)!]);
    for (const c of ids) {
      if (!pooled.has(`c${c}`)) continue;
      const pool = Array.from({ length: maxGrades }, () => {
        const u = rng.next();
        const off = u < 0.05 ? 2 : u < 0.4 ? 1 : 0;
        const sign = rng.next() < 0.5 ? -1 : 1;
        return Math.min(4, Math.max(1, truth[c] + sign * off));
      });
      pairs.push({
        item: `${proposal}:c${c}`,
        proposal,
        candidate: `c${c}`,
        grades: [],
        truth: truth[c],
        pool,
      });
    }
  }
  return { pairs, systems: lists.map((l, s) => ({ key: s === 0 ? "good" : "noisy", lists: l })) };
}
