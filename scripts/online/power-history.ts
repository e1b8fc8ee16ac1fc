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
