import { bootstrapStatistic, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { binomialTest } from "../stats/binomial";
import type { SessionCredit } from "./credit";

export type CreditKind = "click" | "adopt";

/** Who won one session: a system key, "tie" (equal non-zero credit) or "none" (no credit at all). */
export type Outcome = { winner: string } | "tie" | "none";

export interface InterleavingResult {
  control: string;
  challenger: string;
  credit: CreditKind;
  /** Sessions with an impression. */
  sessions: number;
  /** Sessions where neither system earned credit: counted, not in the rates. */
  noPreference: number;
  wins: Record<string, number>;
  ties: number;
  /** The challenger's win rate, (wins_B + ties/2) / (wins_A + wins_B + ties); null with no decided session. */
  winRate: number | null;
  /** Percentile bootstrap interval of the win rate over units (conveners). */
  ci: [number, number] | null;
  /** Two-sided exact binomial test of the challenger's wins among all wins (ties excluded); null with no wins. */
  pValue: number | null;
}

/** The outcome of a session from its two systems' credit (DESIGN.md "Interleaving"). */
export function sessionOutcome(credit: Record<string, number>, control: string, challenger: string): Outcome {
  const a = credit[control] ?? 0;
  const b = credit[challenger] ?? 0;
  if (a > b) return { winner: control };
  if (b > a) return { winner: challenger };
  return a > 0 ? "tie" : "none";
}

/** (wins_B + ties/2) / (wins_A + wins_B + ties), or null when no session was decided. */
export function winRate(winsA: number, winsB: number, ties: number): number | null {
  const n = winsA + winsB + ties;
  return n === 0 ? null : (winsB + ties / 2) / n;
}

/**
 * An interleaved experiment's result from its sessions' credit: wins of each system, ties and
 * no-preference sessions; the challenger's win rate with a percentile bootstrap CI that resamples
 * units (a convener's sessions are not independent of each other); the sign test p of
 * `scipy.stats.binomtest(wins_B, wins_A + wins_B)`.
 */
export function interleavingResult(
  sessions: readonly SessionCredit[],
  options: BootstrapOptions & { control: string; challenger: string; credit?: CreditKind },
): InterleavingResult {
  const { control, challenger } = options;
  const credit = options.credit ?? "click";
  if (control === challenger)
    throw new Error(`the control and the challenger must differ, not ${control} twice`);
  // Per-unit counts, units in name order so the resamples do not depend on the events' order.
  const perUnit = new Map<string, [number, number, number]>();
  let noPreference = 0;
  for (const s of sessions) {
    let u = perUnit.get(s.unit);
    if (!u) perUnit.set(s.unit, (u = [0, 0, 0]));
    const outcome = sessionOutcome(s[credit], control, challenger);
    if (outcome === "none") noPreference++;
    else if (outcome === "tie") u[2]++;
    else if (outcome.winner === control) u[0]++;
    else u[1]++;
  }
  const units = [...perUnit.keys()].sort();
  const winsA = Float64Array.from(units, (u) => perUnit.get(u)![0]);
  const winsB = Float64Array.from(units, (u) => perUnit.get(u)![1]);
  const ties = Float64Array.from(units, (u) => perUnit.get(u)![2]);
  const sum = (column: Float64Array) => column.reduce((s, v) => s + v, 0);
  const [a, b, t] = [sum(winsA), sum(winsB), sum(ties)];
  const interval: Interval | null =
    a + b + t === 0
      ? null
      : bootstrapStatistic(
          units.length,
          (counts) => {
            let ra = 0,
              rb = 0,
              rt = 0;
            for (let i = 0; i < counts.length; i++) {
              ra += counts[i] * winsA[i];
              rb += counts[i] * winsB[i];
              rt += counts[i] * ties[i];
            }
            return winRate(ra, rb, rt);
          },
          options,
        );
  return {
    control,
    challenger,
    credit,
    sessions: sessions.length,
    noPreference,
    wins: { [control]: a, [challenger]: b },
    ties: t,
    winRate: winRate(a, b, t),
    ci: interval ? [interval.lower, interval.upper] : null,
    pValue: a + b === 0 ? null : binomialTest(b, a + b).pValue,
  };
}
