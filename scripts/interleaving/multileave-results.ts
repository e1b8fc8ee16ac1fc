import { bootstrapStatistics, type BootstrapOptions } from "../stats/bootstrap";
import { binomialTest } from "../stats/binomial";
import type { SessionCredit } from "./credit";
import type { CreditKind } from "./results";

/** One ordered pair of a multileaved experiment: how often `system` was preferred over `other`. */
export interface PairPreference {
  system: string;
  other: string;
  /** Sessions where `system` earned more credit than `other`. */
  wins: number;
  /** Sessions where `other` earned more. */
  losses: number;
  /** Sessions where both earned the same non-zero credit: counted, not in the share. */
  ties: number;
  /** wins / (wins + losses): the share of sessions preferring `system` among those with a preference; null without one. */
  share: number | null;
  /** Percentile bootstrap interval of the share over units (conveners). */
  ci: [number, number] | null;
  /** Two-sided exact binomial (sign) test of wins among wins + losses; null with none. */
  pValue: number | null;
}

/** A system's place: Copeland score (pairs won minus pairs lost, by share above or below ½) and mean share. */
export interface SystemRank {
  system: string;
  rank: number;
  copeland: number;
  /** Mean of the system's shares against each other system (pairs without a preference left out). */
  meanShare: number | null;
}

export interface MultileavingResult {
  systems: string[];
  credit: CreditKind;
  /** Sessions with an impression. */
  sessions: number;
  /** Sessions where no system earned credit. */
  noPreference: number;
  /** Every ordered pair (system, other), systems in the given order: the preference matrix row by row. */
  pairs: PairPreference[];
  ranking: SystemRank[];
}

/**
 * The pairwise preferences of one session (Schuth et al. 2014, team-draft multileaving's outcome): for
 * each pair of systems, +1 when the first earned more credit, −1 when the second did, 0 on equal credit.
 * Indexed [i][j] over `systems`.
 */
export function sessionPreferences(credit: Record<string, number>, systems: readonly string[]): number[][] {
  return systems.map((a) => systems.map((b) => Math.sign((credit[a] ?? 0) - (credit[b] ?? 0))));
}

/**
 * A multileaved experiment's result from its sessions' credit: the preference matrix (for each ordered
 * pair, the share of sessions preferring the first among those preferring either, with a percentile
 * bootstrap CI resampling units as the two-system win rate does, and the sign test p), and the systems
 * ranked by Copeland score, then mean share, then name.
 */
export function multileavingResult(
  sessions: readonly SessionCredit[],
  options: BootstrapOptions & { systems: readonly string[]; credit?: CreditKind },
): MultileavingResult {
  const systems = [...options.systems];
  const credit = options.credit ?? "click";
  if (systems.length < 2)
    throw new Error(`a preference matrix needs at least two systems, not ${systems.length}`);
  const k = systems.length;
  // Per unit, a k×k table of wins (row preferred over column) and of ties, flattened.
  const perUnit = new Map<string, { wins: Float64Array; ties: Float64Array }>();
  let noPreference = 0;
  for (const s of sessions) {
    let u = perUnit.get(s.unit);
    if (!u) perUnit.set(s.unit, (u = { wins: new Float64Array(k * k), ties: new Float64Array(k * k) }));
    const c = s[credit];
    if (systems.every((x) => !(c[x] ?? 0))) {
      noPreference++;
      continue;
    }
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        const [a, b] = [c[systems[i]] ?? 0, c[systems[j]] ?? 0];
        if (a > b) u.wins[i * k + j]++;
        else if (a === b && a > 0) u.ties[i * k + j]++;
      }
  }
  // Units in name order, so the resamples do not depend on the events' order.
  const units = [...perUnit.keys()].sort().map((u) => perUnit.get(u)!);
  const total = (table: "wins" | "ties", cell: number) => units.reduce((s, u) => s + u[table][cell], 0);
  const ordered = systems.flatMap((_, i) =>
    systems.map((__, j) => [i, j] as const).filter(([a, b]) => a !== b),
  );
  const intervals = bootstrapStatistics(
    units.length,
    (counts) =>
      ordered.map(([i, j]) => {
        let w = 0,
          l = 0;
        for (let u = 0; u < counts.length; u++) {
          w += counts[u] * units[u].wins[i * k + j];
          l += counts[u] * units[u].wins[j * k + i];
        }
        return w + l === 0 ? null : w / (w + l);
      }),
    ordered.length,
    options,
  );
  const pairs = ordered.map(([i, j], n): PairPreference => {
    const [wins, losses] = [total("wins", i * k + j), total("wins", j * k + i)];
    const ci = intervals[n];
    return {
      system: systems[i],
      other: systems[j],
      wins,
      losses,
      ties: total("ties", i * k + j),
      share: wins + losses === 0 ? null : wins / (wins + losses),
      ci: ci ? [ci.lower, ci.upper] : null,
      pValue: wins + losses === 0 ? null : binomialTest(wins, wins + losses).pValue,
    };
  });
  return {
    systems,
    credit,
    sessions: sessions.length,
    noPreference,
    pairs,
    ranking: rankSystems(systems, pairs),
  };
}

/** Copeland ranking of a preference matrix: ties in score broken by mean share, then by name. */
export function rankSystems(systems: readonly string[], pairs: readonly PairPreference[]): SystemRank[] {
  const scored = systems.map((system) => {
    const own = pairs.filter((p) => p.system === system && p.share !== null);
    const copeland = own.filter((p) => p.share! > 0.5).length - own.filter((p) => p.share! < 0.5).length;
    const meanShare = own.length ? own.reduce((s, p) => s + p.share!, 0) / own.length : null;
    return { system, copeland, meanShare };
  });
  scored.sort(
    (a, b) =>
      b.copeland - a.copeland ||
      (b.meanShare ?? 0.5) - (a.meanShare ?? 0.5) ||
      (a.system < b.system ? -1 : a.system > b.system ? 1 : 0),
  );
  return scored.map((s, i) => ({ ...s, rank: i + 1 }));
}

/** A multileaved experiment's page figures: the matrix and ranking by click and by adoption credit. */
export function multileavingFigures(input: {
  sessions: readonly SessionCredit[];
  systems: readonly string[];
  B: number;
  seed: string;
}): { click: MultileavingResult; adopt: MultileavingResult } {
  const { sessions, systems, B, seed } = input;
  return {
    click: multileavingResult(sessions, { systems, credit: "click", B, seed }),
    adopt: multileavingResult(sessions, { systems, credit: "adopt", B, seed }),
  };
}
