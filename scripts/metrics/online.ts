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
  const unique = new Map<string, OnlineEvent>();
  for (const e of events) if (!unique.has(e.eventId)) unique.set(e.eventId, e);
  const timed = [...unique.values()].map((e) => ({ e, t: Date.parse(e.at) }));
  timed.sort((x, y) => x.t - y.t || (x.e.eventId < y.e.eventId ? -1 : x.e.eventId > y.e.eventId ? 1 : 0));

  const armsOfUnit = new Map<string, Set<string>>();
  for (const { e } of timed) {
    let arms = armsOfUnit.get(e.unitId);
    if (!arms) armsOfUnit.set(e.unitId, (arms = new Set()));
    arms.add(e.arm);
  }
  const excluded = new Set([...armsOfUnit].filter(([, arms]) => arms.size > 1).map(([unit]) => unit));

  interface Session {
    unit: string;
    arm: string;
    rank: Map<string, number>;
    clicked: Set<string>;
    adoptState: Map<string, boolean>;
    impressions: number;
  }
  const sessions = new Map<string, Session>();
  const quality: DataQuality = { duplicateEvents: events.length - unique.size, sessionsWithoutImpression: 0, eventsAboutUnshownCandidates: 0, eventsOfExcludedUnits: 0 };
  const candidateEvents: { session: Session; candidate: string }[] = [];
  for (const { e } of timed) {
    if (excluded.has(e.unitId)) {
      quality.eventsOfExcludedUnits++;
      continue;
    }
    const key = `${e.unitId}\u0000${e.sessionId}`;
    let s = sessions.get(key);
    if (!s) sessions.set(key, (s = { unit: e.unitId, arm: e.arm, rank: new Map(), clicked: new Set(), adoptState: new Map(), impressions: 0 }));
    if (e.type === "impression") {
      s.impressions++;
      e.items!.forEach((c, i) => {
        if (!s!.rank.has(c)) s!.rank.set(c, i + 1);
      });
    } else {
      candidateEvents.push({ session: s, candidate: e.candidateId! });
      if (e.type === "click") s.clicked.add(e.candidateId!);
      else s.adoptState.set(e.candidateId!, e.type === "adopt");
    }
  }
  for (const { session, candidate } of candidateEvents) if (session.impressions > 0 && !session.rank.has(candidate)) quality.eventsAboutUnshownCandidates++;

  const units = new Map<string, UnitTotals>();
  for (const s of sessions.values()) {
    if (s.impressions === 0) {
      quality.sessionsWithoutImpression++;
      continue;
    }
    let u = units.get(s.unit);
    if (!u) units.set(s.unit, (u = { unit: s.unit, arm: s.arm, sessions: 0, shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, successfulSessions: 0 }));
    u.sessions++;
    u.shown += s.rank.size;
    for (const c of s.clicked) if (s.rank.has(c)) u.clicked++;
    let adopted = 0;
    for (const [c, on] of s.adoptState) {
      if (on && s.rank.has(c)) {
        adopted++;
        u.adoptedRankSum += s.rank.get(c)!;
      }
    }
    u.adopted += adopted;
    if (adopted > 0) u.successfulSessions++;
  }
  return { units: [...units.values()], excludedUnits: excluded.size, allUnits: armsOfUnit.size, events: events.length, uniqueEvents: unique.size, quality };
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
          pValue: permutationP(byArm.get(arm) ?? [], byArm.get(control) ?? [], metric, options),
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

/** Two-sided permutation p-value over units: arm labels shuffled between the two arms' units. */
function permutationP(treatment: readonly UnitTotals[], control: readonly UnitTotals[], metric: OnlineMetric, options: BootstrapOptions): number | null {
  const observedA = metricOf(sumTotals(treatment), metric);
  const observedC = metricOf(sumTotals(control), metric);
  if (observedA === null || observedC === null) return null;
  const observed = Math.abs(observedA - observedC);
  const pooled = [...treatment, ...control];
  const B = options.B ?? 2000;
  const rng = createRng(`${options.seed ?? "assay"}:permutation:${metric}`);
  let extreme = 0;
  for (let r = 0; r < B; r++) {
    const order = shuffled(pooled, rng);
    const a = metricOf(sumTotals(order.slice(0, treatment.length)), metric);
    const c = metricOf(sumTotals(order.slice(treatment.length)), metric);
    if (a !== null && c !== null && Math.abs(a - c) >= observed * (1 - 1e-12)) extreme++;
  }
  return (extreme + 1) / (B + 1);
}
