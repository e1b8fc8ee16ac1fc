/**
 * Guardrails: metrics an experiment must not make worse by more than a tolerated relative change. Each
 * guardrail is a ratio of per-convener sums (m/d), read with the same delta-method Welch test as the
 * decision metrics (gbstats.ts), and given a state by where its interval lies against the tolerance — a
 * non-inferiority reading: harm beyond the tolerance established (failing), ruled out (ok), or neither yet
 * (at risk). With few conveners most guardrails stay "at risk" until the interval is narrow enough.
 */
import type { Guardrail, GuardrailMetric } from "../inputs/guardrails";
import { ratioStatistic, tTest, type RatioSums } from "./gbstats";
import type { GuardrailUnit } from "./guardrail-sessions";

export { guardrailMetrics, parseGuardrail, type Guardrail } from "../inputs/guardrails";
export { guardrailUnits, type GuardrailSession, type GuardrailUnit } from "./guardrail-sessions";

export type GuardrailState = "ok" | "at risk" | "failing";

/** The state of a guardrail from its relative effect's interval [lo, hi] (treatment vs control). */
export function guardrailState(ci: readonly [number, number], g: Guardrail): GuardrailState {
  // Turn the interval so that positive means harm, then compare it with the tolerance.
  const [lo, hi] = g.direction === "increase" ? ci : [-ci[1], -ci[0]];
  if (lo > g.tolerance) return "failing";
  if (hi <= g.tolerance) return "ok";
  return "at risk";
}

function ratioSums(units: readonly GuardrailUnit[], metric: GuardrailMetric): RatioSums {
  const s: RatioSums = {
    n: 0,
    mSum: 0,
    mSquares: 0,
    dSum: 0,
    dSquares: 0,
    mdProducts: 0,
    mPreSum: 0,
    mPreSquares: 0,
    dPreSum: 0,
    dPreSquares: 0,
    mPostMPre: 0,
    mPostDPre: 0,
    mPreDPost: 0,
    mPreDPre: 0,
    dPostDPre: 0,
  };
  for (const u of units) {
    const v = u.sums[metric];
    if (!v) continue;
    s.n += 1;
    s.mSum += v.m;
    s.mSquares += v.m * v.m;
    s.dSum += v.d;
    s.dSquares += v.d * v.d;
    s.mdProducts += v.m * v.d;
  }
  return s;
}

export type GuardrailResult = Guardrail & {
  arm: string;
  control: number | null;
  treatment: number | null;
} & (
    | { state: GuardrailState; effect: number; ci: [number, number]; pValue: number }
    | { state: "at risk"; reason: string }
  );

/** Every guardrail for every non-control arm: per-arm values, relative effect with its 1 − α interval, state. */
export function evaluateGuardrails(
  units: readonly GuardrailUnit[],
  control: string,
  guardrails: readonly Guardrail[],
  alpha = 0.05,
): GuardrailResult[] {
  const arms = [...new Set(units.map((u) => u.arm))].filter((a) => a !== control).sort();
  const inArm = (arm: string) => units.filter((u) => u.arm === arm);
  return arms.flatMap((arm) =>
    guardrails.map((g): GuardrailResult => {
      const a = ratioStatistic(ratioSums(inArm(control), g.metric));
      const b = ratioStatistic(ratioSums(inArm(arm), g.metric));
      const values = { arm, control: a.n > 0 ? a.mean : null, treatment: b.n > 0 ? b.mean : null };
      if (a.n < 2 || b.n < 2)
        return { ...g, ...values, state: "at risk", reason: "too few conveners with this metric in an arm" };
      const t = tTest(a, b, "relative", alpha);
      if ("reason" in t) return { ...g, ...values, state: "at risk", reason: t.reason };
      return {
        ...g,
        ...values,
        state: guardrailState(t.ci, g),
        effect: t.effect,
        ci: t.ci,
        pValue: t.pValue,
      };
    }),
  );
}

/** How an experiment stands on its guardrails: how many readings fail, are at risk, are ok. */
export interface GuardrailStanding {
  failing: number;
  atRisk: number;
  ok: number;
}

/**
 * An experiment's standing from all its guardrail readings — the ratio guardrails (evaluateGuardrails)
 * and the share guardrails (scripts/fairness/composition.ts) alike — so the experiment list's flag and
 * the page's notice cannot disagree about what "a guardrail is failing" means.
 */
export function guardrailStanding(readings: readonly { state: GuardrailState }[]): GuardrailStanding {
  const count = (state: GuardrailState) => readings.filter((r) => r.state === state).length;
  return { failing: count("failing"), atRisk: count("at risk"), ok: count("ok") };
}
