import type { UnitTotals } from "./report";
import { intraClassCorrelation } from "./power";

/** What a history of sessions says for sizing an A/B test on the adoption (session success) rate. */
export interface PowerHistory {
  conveners: number;
  sessions: number;
  /** Share of sessions in which the convener adopted someone; null without sessions. */
  baseline: number | null;
  sessionsPerConvener: number | null;
  /** One-way ANOVA ICC of a convener's sessions' outcomes; null when it cannot be estimated. */
  icc: number | null;
  arms: Record<string, { conveners: number; sessions: number }>;
}

/**
 * What a history of events says about the adoption metric: each session's outcome is whether its
 * convener adopted someone (the session success rate), so a unit's sessions are its successful ones
 * (1) and the rest (0), which is all the ANOVA estimator of the ICC needs. `assay power --events` and
 * the app's power section both read a history through this.
 */
export function powerHistory(
  units: readonly Pick<UnitTotals, "arm" | "sessions" | "successfulSessions">[],
): PowerHistory {
  const used = units.filter((u) => u.sessions > 0);
  const sessions = used.reduce((s, u) => s + u.sessions, 0);
  const successes = used.reduce((s, u) => s + u.successfulSessions, 0);
  const groups = used.map((u) =>
    Array.from({ length: u.sessions }, (_, i) => (i < u.successfulSessions ? 1 : 0)),
  );
  const byArm = new Map<string, { conveners: number; sessions: number }>();
  for (const u of used) {
    const arm = byArm.get(u.arm) ?? { conveners: 0, sessions: 0 };
    arm.conveners++;
    arm.sessions += u.sessions;
    byArm.set(u.arm, arm);
  }
  return {
    conveners: used.length,
    sessions,
    baseline: sessions === 0 ? null : successes / sessions,
    sessionsPerConvener: used.length === 0 ? null : sessions / used.length,
    icc: intraClassCorrelation(groups),
    arms: Object.fromEntries(byArm),
  };
}

/** ρ for the power form: the correlation of conveners' adoption rate with their own pre-period rate. */
export interface PrePeriodRho {
  rho: number;
  /** Conveners (per experiment) with sessions both in an experiment and in its pre-period. */
  conveners: number;
  /** Experiments whose conveners were paired with their pre-period. */
  experiments: number;
}

/**
 * CUPED's ρ as earlier experiments measured it: the Pearson correlation, over conveners with sessions in
 * both, of each convener's share of sessions with an adoption in an experiment with the same share over
 * its sessions of the pre-period before that experiment. Null with fewer than 3 such conveners or no
 * spread on either side (no correlation to speak of).
 */
export function prePeriodRho(
  pairs: readonly {
    post: Pick<UnitTotals, "sessions" | "successfulSessions">;
    pre: (typeof pairs)[number]["post"];
  }[],
  experiments: number,
): PrePeriodRho | null {
  const used = pairs.filter((p) => p.post.sessions > 0 && p.pre.sessions > 0);
  const n = used.length;
  if (n < 3) return null;
  const x = used.map((p) => p.pre.successfulSessions / p.pre.sessions);
  const y = used.map((p) => p.post.successfulSessions / p.post.sessions);
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return { rho: sxy / Math.sqrt(sxx * syy), conveners: n, experiments };
}
