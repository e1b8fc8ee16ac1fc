import { bootstrapGroups, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { sampleRatioMismatch } from "../stats/srm";
import { createRng, shuffled } from "../lib/random";
import type { OnlineEvent } from "./events";

export const onlineMetrics = ["ctr", "adoptionRate", "meanAdoptedRank", "sessionSuccessRate"] as const;
export type OnlineMetric = (typeof onlineMetrics)[number];

/** Per-unit sums: every online metric is a ratio of two of them, so units resample cleanly. */
interface UnitTotals {
  unit: string;
  arm: string;
  sessions: number;
  shown: number;
  clicked: number;
  adopted: number;
  adoptedRankSum: number;
  successfulSessions: number;
}

export interface ArmReport {
  units: number;
  sessions: number;
  shown: number;
  clicked: number;
  adopted: number;
  ctr: number | null;
  adoptionRate: number | null;
  meanAdoptedRank: number | null;
  sessionSuccessRate: number | null;
  ci?: Record<OnlineMetric, Interval | null>;
}

export interface Comparison {
  arm: string;
  control: string;
  metric: OnlineMetric;
  difference: number | null;
  relativeLift: number | null;
  ci: Interval | null;
  liftCi: Interval | null;
  pValue: number | null;
}

export interface DataQuality {
  duplicateEvents: number;
  sessionsWithoutImpression: number;
  eventsAboutUnshownCandidates: number;
  eventsOfExcludedUnits: number;
}

export interface OnlineReport {
  events: number;
  uniqueEvents: number;
  arms: Record<string, ArmReport>;
  excludedUnits: number;
  excludedShare: number;
  multipleExposureWarning: boolean;
  srm: ReturnType<typeof sampleRatioMismatch> | null;
  comparisons: Comparison[];
  dataQuality: DataQuality;
}

export interface OnlineOptions extends BootstrapOptions {
  /** Configured arm weights for the SRM check; equal weights over the observed arms by default. */
  weights?: Record<string, number>;
  /** The control arm; the alphabetically first arm by default. */
  control?: string;
  /** Compute CIs and p-values (off for the plain numbers). */
  intervals?: boolean;
}

function metricOf(t: { shown: number; clicked: number; adopted: number; adoptedRankSum: number; sessions: number; successfulSessions: number }, metric: OnlineMetric): number | null {
  switch (metric) {
    case "ctr":
      return t.shown === 0 ? null : t.clicked / t.shown;
    case "adoptionRate":
      return t.shown === 0 ? null : t.adopted / t.shown;
    case "meanAdoptedRank":
      return t.adopted === 0 ? null : t.adoptedRankSum / t.adopted;
    case "sessionSuccessRate":
      return t.sessions === 0 ? null : t.successfulSessions / t.sessions;
  }
}

/**
 * Per-session state and per-unit totals, following DESIGN.md "Online metrics": events de-duplicated
 * by eventId and processed in (at, eventId) order; units seen in more than one arm excluded;
 * shown(s) = candidates of the session's impressions, ranked by their position in the first
 * impression that showed them; clicked and adopted (after unadopts) intersected with shown(s).
 */
export function unitTotals(events: readonly OnlineEvent[]) {
  const seen = new Set<string>();
  const armsOfUnit = new Map<string, Set<string>>();
  // Order matters only within a session (first impressions, adopt then unadopt), so events are
  // grouped by unit and session, and each session put in (at, eventId) order on its own.
  const byUnit = new Map<string, Map<string, { events: OnlineEvent[]; times: number[] }>>();
  let uniqueCount = 0;
  for (const e of events) {
    if (seen.has(e.eventId)) continue;
    seen.add(e.eventId);
    uniqueCount++;
    let arms = armsOfUnit.get(e.unitId);
    if (!arms) armsOfUnit.set(e.unitId, (arms = new Set()));
    arms.add(e.arm);
    let unitSessions = byUnit.get(e.unitId);
    if (!unitSessions) byUnit.set(e.unitId, (unitSessions = new Map()));
    let session = unitSessions.get(e.sessionId);
    if (!session) unitSessions.set(e.sessionId, (session = { events: [], times: [] }));
    session.events.push(e);
    session.times.push(isoTime(e.at));
  }
  const excluded = new Set([...armsOfUnit].filter(([, arms]) => arms.size > 1).map(([unit]) => unit));

  interface Session {
    unit: string;
    arm: string;
    /** The first impression's items; ranks of a single-impression session are their positions here. */
    first: string[] | null;
    /** Ranks once a second impression adds candidates. */
    rank: Map<string, number> | null;
    clicked: Set<string>;
    adoptState: Map<string, boolean>;
    impressions: number;
  }
  const sessions: Session[] = [];
  const quality: DataQuality = { duplicateEvents: events.length - uniqueCount, sessionsWithoutImpression: 0, eventsAboutUnshownCandidates: 0, eventsOfExcludedUnits: 0 };
  const candidateEvents: { session: Session; candidate: string }[] = [];
  for (const [unit, unitSessions] of byUnit) {
    for (const { events: list, times } of unitSessions.values()) {
      if (excluded.has(unit)) {
        quality.eventsOfExcludedUnits += list.length;
        continue;
      }
      sortByTime(list, times);
      const s: Session = { unit, arm: list[0].arm, first: null, rank: null, clicked: new Set(), adoptState: new Map(), impressions: 0 };
      sessions.push(s);
      for (const e of list) {
        if (e.type === "impression") {
          s.impressions++;
          const items = e.items!;
          if (!s.first) s.first = items;
          else {
            if (!s.rank) s.rank = new Map(s.first.map((c, i) => [c, i + 1]));
            for (let i = 0; i < items.length; i++) if (!s.rank.has(items[i])) s.rank.set(items[i], i + 1);
          }
        } else {
          candidateEvents.push({ session: s, candidate: e.candidateId! });
          if (e.type === "click") s.clicked.add(e.candidateId!);
          else s.adoptState.set(e.candidateId!, e.type === "adopt");
        }
      }
    }
  }
  for (const { session, candidate } of candidateEvents) if (session.impressions > 0 && rankIn(session, candidate) === 0) quality.eventsAboutUnshownCandidates++;

  // 1-based rank in the session's shown list, 0 when the candidate was never shown.
  function rankIn(s: Session, candidate: string): number {
    if (s.rank) return s.rank.get(candidate) ?? 0;
    return s.first ? s.first.indexOf(candidate) + 1 : 0;
  }
  const units = new Map<string, UnitTotals>();
  for (const s of sessions) {
    if (s.impressions === 0) {
      quality.sessionsWithoutImpression++;
      continue;
    }
    let u = units.get(s.unit);
    if (!u) units.set(s.unit, (u = { unit: s.unit, arm: s.arm, sessions: 0, shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, successfulSessions: 0 }));
    u.sessions++;
    u.shown += s.rank ? s.rank.size : s.first!.length;
    for (const c of s.clicked) if (rankIn(s, c) > 0) u.clicked++;
    let adopted = 0;
    for (const [c, on] of s.adoptState) {
      const rank = on ? rankIn(s, c) : 0;
      if (rank > 0) {
        adopted++;
        u.adoptedRankSum += rank;
      }
    }
    u.adopted += adopted;
    if (adopted > 0) u.successfulSessions++;
  }
  return { units: [...units.values()], excludedUnits: excluded.size, allUnits: armsOfUnit.size, events: events.length, uniqueEvents: uniqueCount, quality };
}

/**
 * Milliseconds of an ISO 8601 time. The usual form, YYYY-MM-DDTHH:MM:SS[.fff]Z, is read digit by
 * digit (a million Date.parse calls dominate `assay online` otherwise); anything else, offsets
 * included, goes to Date.parse.
 */
export function isoTime(at: string): number {
  const n = at.length;
  if ((n === 20 || n === 24) && at.charCodeAt(n - 1) === 90 /* Z */ && at.charCodeAt(10) === 84 /* T */) {
    const d = (i: number) => at.charCodeAt(i) - 48;
    const year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3);
    const month = d(5) * 10 + d(6);
    const day = d(8) * 10 + d(9);
    const ms = n === 24 ? d(20) * 100 + d(21) * 10 + d(22) : 0;
    const t = Date.UTC(year, month - 1, day, d(11) * 10 + d(12), d(14) * 10 + d(15), d(17) * 10 + d(18), ms);
    // A malformed digit or an impossible date makes the fast path disagree; Date.parse decides then.
    if (!Number.isNaN(t) && month >= 1 && month <= 12 && day >= 1 && day <= 31 && new Date(t).getUTCDate() === day) return t;
  }
  return Date.parse(at);
}

/** Insertion sort of a session's events by (time, eventId), its times kept alongside. */
function sortByTime(events: OnlineEvent[], times: number[]) {
  for (let i = 1; i < events.length; i++) {
    const e = events[i];
    const t = times[i];
    let j = i;
    while (j > 0 && (times[j - 1] > t || (times[j - 1] === t && events[j - 1].eventId > e.eventId))) {
      events[j] = events[j - 1];
      times[j] = times[j - 1];
      j--;
    }
    events[j] = e;
    times[j] = t;
  }
}

function sumTotals(units: readonly UnitTotals[], counts?: ArrayLike<number>) {
  const t = { sessions: 0, shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, successfulSessions: 0 };
  units.forEach((u, i) => {
    const c = counts ? counts[i] : 1;
    if (c === 0) return;
    t.sessions += c * u.sessions;
    t.shown += c * u.shown;
    t.clicked += c * u.clicked;
    t.adopted += c * u.adopted;
    t.adoptedRankSum += c * u.adoptedRankSum;
    t.successfulSessions += c * u.successfulSessions;
  });
  return t;
}

export function onlineReport(events: readonly OnlineEvent[], options: OnlineOptions = {}): OnlineReport {
  const totals = unitTotals(events);
  const byArm = new Map<string, UnitTotals[]>();
  for (const u of totals.units) {
    if (!byArm.has(u.arm)) byArm.set(u.arm, []);
    byArm.get(u.arm)!.push(u);
  }
  const armNames = [...new Set([...byArm.keys(), ...Object.keys(options.weights ?? {})])].sort();
  const arms: Record<string, ArmReport> = {};
  for (const arm of armNames) {
    const units = byArm.get(arm) ?? [];
    const t = sumTotals(units);
    arms[arm] = {
      units: units.length,
      sessions: t.sessions,
      shown: t.shown,
      clicked: t.clicked,
      adopted: t.adopted,
      ctr: metricOf(t, "ctr"),
      adoptionRate: metricOf(t, "adoptionRate"),
      meanAdoptedRank: metricOf(t, "meanAdoptedRank"),
      sessionSuccessRate: metricOf(t, "sessionSuccessRate"),
    };
  }
  const weights = options.weights ?? Object.fromEntries(armNames.map((a) => [a, 1 / armNames.length]));
  const srm = armNames.length >= 2 ? sampleRatioMismatch(Object.fromEntries(armNames.map((a) => [a, arms[a].units])), weights) : null;
  const control = options.control ?? armNames[0];
  if (control !== undefined && !armNames.includes(control)) throw new Error(`the control arm ${control} has no units (arms: ${armNames.join(", ")})`);
  const comparisons: Comparison[] = [];
  if (options.intervals && armNames.length > 0) {
    const groups = armNames.map((a) => byArm.get(a) ?? []);
    const treatments = armNames.filter((a) => a !== control);
    const controlIndex = armNames.indexOf(control);
    // Per resample: each arm's four metrics, then each treatment's difference and lift vs control.
    const k = armNames.length * 4 + treatments.length * 8;
    const intervals = bootstrapGroups(
      groups.map((g) => g.length),
      (counts) => {
        const values = groups.map((g, i) => sumTotals(g, counts[i]));
        const out: (number | null)[] = [];
        for (const v of values) for (const m of onlineMetrics) out.push(metricOf(v, m));
        for (const arm of treatments) {
          for (const m of onlineMetrics) {
            const a = metricOf(values[armNames.indexOf(arm)], m);
            const c = metricOf(values[controlIndex], m);
            out.push(a === null || c === null ? null : a - c, a === null || c === null || c === 0 ? null : a / c - 1);
          }
        }
        return out;
      },
      k,
      options,
    );
    armNames.forEach((arm, i) => {
      arms[arm].ci = Object.fromEntries(onlineMetrics.map((m, j) => [m, intervals[i * 4 + j]])) as Record<OnlineMetric, Interval | null>;
    });
    treatments.forEach((arm, t) => {
      const pValues = permutationPValues(byArm.get(arm) ?? [], byArm.get(control) ?? [], options);
      onlineMetrics.forEach((metric, j) => {
        const a = arms[arm][metric];
        const c = arms[control][metric];
        const base = armNames.length * 4 + t * 8 + j * 2;
        comparisons.push({
          arm,
          control,
          metric,
          difference: a === null || c === null ? null : a - c,
          relativeLift: a === null || c === null || c === 0 ? null : a / c - 1,
          ci: intervals[base],
          liftCi: intervals[base + 1],
          pValue: pValues[metric],
        });
      });
    });
  }
  const excludedShare = totals.allUnits === 0 ? 0 : totals.excludedUnits / totals.allUnits;
  return {
    events: totals.events,
    uniqueEvents: totals.uniqueEvents,
    arms,
    excludedUnits: totals.excludedUnits,
    excludedShare,
    multipleExposureWarning: excludedShare > 0.01,
    srm,
    comparisons,
    dataQuality: totals.quality,
  };
}

/**
 * Two-sided permutation p-values over units, one per metric: arm labels are shuffled between the two
 * arms' units (the randomization unit), and each shuffle serves every metric.
 */
function permutationPValues(treatment: readonly UnitTotals[], control: readonly UnitTotals[], options: BootstrapOptions): Record<OnlineMetric, number | null> {
  const observedA = sumTotals(treatment);
  const observedC = sumTotals(control);
  const observed = onlineMetrics.map((m) => {
    const a = metricOf(observedA, m);
    const c = metricOf(observedC, m);
    return a === null || c === null ? null : Math.abs(a - c);
  });
  const pooled = [...treatment, ...control];
  const B = options.B ?? 2000;
  const rng = createRng(`${options.seed ?? "assay"}:permutation`);
  const extreme = onlineMetrics.map(() => 0);
  for (let r = 0; r < B; r++) {
    const order = shuffled(pooled, rng);
    const a = sumTotals(order.slice(0, treatment.length));
    const c = sumTotals(order.slice(treatment.length));
    onlineMetrics.forEach((m, j) => {
      const va = metricOf(a, m);
      const vc = metricOf(c, m);
      if (observed[j] !== null && va !== null && vc !== null && Math.abs(va - vc) >= observed[j]! * (1 - 1e-12)) extreme[j]++;
    });
  }
  return Object.fromEntries(onlineMetrics.map((m, j) => [m, observed[j] === null ? null : (extreme[j] + 1) / (B + 1)])) as Record<OnlineMetric, number | null>;
}
