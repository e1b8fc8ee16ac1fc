/**
 * The guardrail metrics' per-convener sums from sessions (docs/online-experiments.md, Guardrails). Each
 * is a ratio of sums over a convener's sessions, so it is read with the delta method like the decision
 * metrics:
 * - coiShare: adopted candidates with a declared conflict on the session's proposal / adopted;
 * - minutesToFinish: minutes from the first impression to `finish`, summed / finished sessions;
 * - emptyCommitteeShare: finished sessions with no adopted candidate / finished sessions;
 * - profileOpensPerAdoption: clicked shown candidates (profiles opened) / adopted.
 * A convener with a zero denominator still counts as a unit (0/0), as in GrowthBook's ratio metrics.
 */
import type { GuardrailMetric } from "../inputs/guardrails";

/** What one session (with an impression, of a unit in one arm) gives the guardrails. */
export interface GuardrailSession {
  unit: string;
  arm: string;
  clicked: number;
  adopted: number;
  /** Adopted candidates in conflict with the proposal; null when conflicts are unknown (a CLI run without them). */
  coiAdopted: number | null;
  /** Null when the session was not finished. */
  minutesToFinish: number | null;
  /** The adopted shown candidates (share guardrails read their groups); absent where not collected. */
  adoptedIds?: readonly string[];
}

/** One convener's numerator and denominator of each guardrail metric. */
export interface GuardrailUnit {
  unit: string;
  arm: string;
  sums: Partial<Record<GuardrailMetric, { m: number; d: number }>>;
}

/** Per-convener sums of every guardrail metric; coiShare only when every session knows its conflicts. */
export function guardrailUnits(sessions: Iterable<GuardrailSession>): GuardrailUnit[] {
  const units = new Map<
    string,
    GuardrailUnit & { sums: Record<GuardrailMetric, { m: number; d: number }> }
  >();
  let conflictsKnown = true;
  for (const s of sessions) {
    let u = units.get(s.unit);
    if (!u) {
      const zero = () => ({ m: 0, d: 0 });
      u = {
        unit: s.unit,
        arm: s.arm,
        sums: {
          coiShare: zero(),
          minutesToFinish: zero(),
          emptyCommitteeShare: zero(),
          profileOpensPerAdoption: zero(),
        },
      };
      units.set(s.unit, u);
    }
    if (s.coiAdopted === null) conflictsKnown = false;
    u.sums.coiShare.m += s.coiAdopted ?? 0;
    u.sums.coiShare.d += s.adopted;
    if (s.minutesToFinish !== null) {
      u.sums.minutesToFinish.m += s.minutesToFinish;
      u.sums.minutesToFinish.d += 1;
      u.sums.emptyCommitteeShare.m += s.adopted === 0 ? 1 : 0;
      u.sums.emptyCommitteeShare.d += 1;
    }
    u.sums.profileOpensPerAdoption.m += s.clicked;
    u.sums.profileOpensPerAdoption.d += s.adopted;
  }
  const out = [...units.values()].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
  if (!conflictsKnown) for (const u of out) delete (u.sums as GuardrailUnit["sums"]).coiShare;
  return out;
}

/** A proposal–candidate pair's key in a set of declared conflicts. */
export const conflictKey = (proposal: string, candidate: string) => `${proposal}\u0000${candidate}`;

/** How many of a session's adopted candidates are in conflict with its proposal. */
export function coiCount(
  conflicts: ReadonlySet<string>,
  proposal: string,
  adoptedIds: readonly string[],
): number {
  let n = 0;
  for (const c of adoptedIds) if (conflicts.has(conflictKey(proposal, c))) n++;
  return n;
}
