import { onlineMetrics, type OnlineMetric } from "./report";

/** One session as the day-by-day view needs it: its convener (the unit), arm, first day and sums. */
export interface DailySession {
  unit: string;
  arm: string;
  /** The UTC day of the session's first event, YYYY-MM-DD. */
  day: string;
  shown: number;
  clicked: number;
  adopted: number;
  adoptedRankSum: number;
}

/** A day's cumulative values per arm and metric, with their 95% intervals (null: too few conveners). */
export interface DailyPointWithCi {
  day: string;
  arms: Record<string, Record<OnlineMetric, number | null>>;
  ci: Record<string, Record<OnlineMetric, { lower: number; upper: number } | null>>;
  /** Each arm's sessions up to that day: a chart ends an arm's line on the last day it grew. */
  sessions: Record<string, number>;
}

interface UnitSums {
  shown: number;
  clicked: number;
  adopted: number;
  adoptedRankSum: number;
  sessions: number;
  successfulSessions: number;
}

/** Each online metric as a ratio of two per-unit sums (the same definitions as scripts/online/report.ts). */
const RATIOS: Record<OnlineMetric, [keyof UnitSums, keyof UnitSums]> = {
  ctr: ["clicked", "shown"],
  adoptionRate: ["adopted", "shown"],
  meanAdoptedRank: ["adoptedRankSum", "adopted"],
  sessionSuccessRate: ["successfulSessions", "sessions"],
};

/** z of a two-sided 95% normal interval. */
const Z95 = 1.959963984540054;

/**
 * Each arm's online metrics as they stood at the end of each day (every session up to that day),
 * with pointwise 95% intervals by the delta method for a ratio of sums over conveners, the unit the
 * report's bootstrap resamples: Var(ΣY/ΣX) ≈ n/(n−1) · Σ(Yᵢ − R·Xᵢ)² / (ΣX)². The intervals hold at
 * each day alone, not for looking every day (the report's sequential option is for that).
 */
export function cumulativeDailyWithIntervals(sessions: readonly DailySession[]): DailyPointWithCi[] {
  const byDay = new Map<string, DailySession[]>();
  for (const s of sessions) {
    const list = byDay.get(s.day);
    if (list) list.push(s);
    else byDay.set(s.day, [s]);
  }
  const units = new Map<string, Map<string, UnitSums>>();
  return [...byDay.keys()].sort().map((day) => {
    for (const s of byDay.get(day)!) {
      let arm = units.get(s.arm);
      if (!arm) units.set(s.arm, (arm = new Map()));
      let u = arm.get(s.unit);
      if (!u)
        arm.set(
          s.unit,
          (u = { shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, sessions: 0, successfulSessions: 0 }),
        );
      u.shown += s.shown;
      u.clicked += s.clicked;
      u.adopted += s.adopted;
      u.adoptedRankSum += s.adoptedRankSum;
      u.sessions++;
      if (s.adopted > 0) u.successfulSessions++;
    }
    const arms: DailyPointWithCi["arms"] = {};
    const ci: DailyPointWithCi["ci"] = {};
    const sessions: DailyPointWithCi["sessions"] = {};
    for (const [arm, perUnit] of [...units].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      // In the units' order, not the sessions': the database returns sessions in no set order (a
      // concurrent scan may start mid-table), and the residuals' floating-point sum must not depend on it.
      const list = [...perUnit].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, u]) => u);
      sessions[arm] = list.reduce((n, u) => n + u.sessions, 0);
      arms[arm] = {} as Record<OnlineMetric, number | null>;
      ci[arm] = {} as Record<OnlineMetric, { lower: number; upper: number } | null>;
      for (const metric of onlineMetrics) {
        const [y, x] = RATIOS[metric];
        const sumY = list.reduce((n, u) => n + u[y], 0);
        const sumX = list.reduce((n, u) => n + u[x], 0);
        const value = sumX === 0 ? null : sumY / sumX;
        arms[arm][metric] = value;
        if (value === null || list.length < 2) {
          ci[arm][metric] = null;
          continue;
        }
        const residuals = list.reduce((n, u) => n + (u[y] - value * u[x]) ** 2, 0);
        const se = Math.sqrt((list.length / (list.length - 1)) * residuals) / sumX;
        ci[arm][metric] = { lower: value - Z95 * se, upper: value + Z95 * se };
      }
    }
    return { day, arms, ci, sessions };
  });
}
