import { DEFAULT_SEED } from "../lib/defaults";
import { bootstrapGroups, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { sampleRatioMismatch } from "./srm";
import { DEFAULT_N_STAR, sequentialInterval } from "./sequential";
import { createRng } from "../lib/random";
import type { OnlineEvent } from "./events";
import { coiCount, type GuardrailSession } from "./guardrail-sessions";

export const onlineMetrics = ["ctr", "adoptionRate", "meanAdoptedRank", "sessionSuccessRate"] as const;
export type OnlineMetric = (typeof onlineMetrics)[number];

/** Per-unit sums: every online metric is a ratio of two of them, so units resample cleanly. */
export interface UnitTotals extends SessionSums {
  unit: string;
  arm: string;
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
  /** Which intervals the comparisons carry, when the caller asked for a kind (see OnlineOptions.intervalKind). */
  intervals?: IntervalKind;
  /** The sequential intervals' tuning parameter N*. */
  nStar?: number;
}

/** "fixed": bootstrap percentile intervals, valid at one look; "sequential": always-valid, for daily looks. */
export type IntervalKind = "fixed" | "sequential";

export interface OnlineOptions extends BootstrapOptions {
  /** Configured arm weights for the SRM check; equal weights over the observed arms by default. */
  weights?: Record<string, number>;
  /** The control arm; the alphabetically first arm by default. */
  control?: string;
  /** Compute CIs and p-values (off for the plain numbers). */
  intervals?: boolean;
  /**
   * The kind of interval of the differences and lifts vs control (bootstrap "fixed" when absent).
   * "sequential": GrowthBook's asymptotic confidence sequences on delta-method variances over units.
   */
  intervalKind?: IntervalKind;
  /** N* of the sequential intervals, in units (conveners) of both arms (default 5,000). */
  nStar?: number;
}

/** Numerator and denominator (per-unit sums) of each metric: every metric is a ratio of two sums. */
const RATIO_PARTS: Record<OnlineMetric, [keyof SessionSums, keyof SessionSums]> = {
  ctr: ["clicked", "shown"],
  adoptionRate: ["adopted", "shown"],
  meanAdoptedRank: ["adoptedRankSum", "adopted"],
  sessionSuccessRate: ["successfulSessions", "sessions"],
};

/**
 * Variance of a ratio metric ΣY/ΣX over n units by the delta method, as GrowthBook computes ratio
 * metrics: (s²_Y/μ_X² − 2μ_Y·s_XY/μ_X³ + μ_Y²·s²_X/μ_X⁴) / n with sample (n − 1) moments. Null below two
 * units or with no denominator.
 */
function ratioVariance(units: readonly UnitTotals[], metric: OnlineMetric): number | null {
  const [num, den] = RATIO_PARTS[metric];
  const n = units.length;
  if (n < 2) return null;
  let sy = 0;
  let sx = 0;
  for (const u of units) {
    sy += u[num];
    sx += u[den];
  }
  const my = sy / n;
  const mx = sx / n;
  if (mx === 0) return null;
  let vyy = 0;
  let vxx = 0;
  let vxy = 0;
  for (const u of units) {
    vyy += (u[num] - my) ** 2;
    vxx += (u[den] - mx) ** 2;
    vxy += (u[num] - my) * (u[den] - mx);
  }
  vyy /= n - 1;
  vxx /= n - 1;
  vxy /= n - 1;
  return Math.max(0, (vyy / mx ** 2 - (2 * my * vxy) / mx ** 3 + (my ** 2 * vxx) / mx ** 4) / n);
}

/**
 * Always-valid intervals of a treatment's difference and relative lift vs control. The lift's variance
 * is the delta method's Var_T/μ_C² + μ_T²·Var_C/μ_C⁴ (GrowthBook's relative effects); n counts the units
 * of both arms, as GrowthBook's sequential engine does.
 */
function sequentialComparison(
  treatment: readonly UnitTotals[],
  control: readonly UnitTotals[],
  metric: OnlineMetric,
  a: number | null,
  c: number | null,
  options: OnlineOptions,
) {
  const vt = ratioVariance(treatment, metric);
  const vc = ratioVariance(control, metric);
  if (a === null || c === null || vt === null || vc === null) return { ci: null, liftCi: null };
  const settings = { alpha: 1 - (options.level ?? 0.95), nStar: options.nStar ?? DEFAULT_N_STAR };
  const n = treatment.length + control.length;
  const ci = sequentialInterval(a - c, vt + vc, n, settings);
  const liftCi =
    c === 0 ? null : sequentialInterval(a / c - 1, vt / c ** 2 + (a ** 2 * vc) / c ** 4, n, settings);
  return { ci, liftCi };
}

function metricOf(
  t: {
    shown: number;
    clicked: number;
    adopted: number;
    adoptedRankSum: number;
    sessions: number;
    successfulSessions: number;
  },
  metric: OnlineMetric,
): number | null {
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
export interface StreamTotals {
  units: UnitTotals[];
  excludedUnits: number;
  allUnits: number;
  events: number;
  uniqueEvents: number;
  quality: DataQuality;
}

export function unitTotals(events: readonly OnlineEvent[]): StreamTotals {
  const builder = new UnitTotalsBuilder();
  for (const e of events) builder.add(e);
  return builder.build();
}

/** What a session's summary needs of one event; the rest of the event is not kept. */
type SessionEvent = Pick<OnlineEvent, "eventId" | "type" | "arm" | "candidateId" | "items">;

interface Bucket {
  unit: string;
  proposal: string;
  events: SessionEvent[];
  times: number[];
  arm: string;
  mixed: boolean;
  next: Bucket | null;
}

/**
 * Events taken one at a time as a file is read, each kept only as far as its session's summary needs
 * it (a million whole parsed events would all live until the last is read).
 *
 * Order matters only within a session (first impressions, adopt then unadopt), so events are
 * grouped by unit and session, and each session put in (at, eventId) order on its own. Sessions are
 * found by their id, then their unit (a chain, for the rare id used by several units): one hash
 * look-up per event where a map per unit would take two; arms are tracked per session.
 */
export class UnitTotalsBuilder {
  /** After `build`, each counted session's guardrail inputs, when the builder was asked for them. */
  readonly guardrailSessions: GuardrailSession[] = [];
  /** After `build`, each counted session's sums and proposal (slices), when asked for with `sessions`. */
  readonly sessionRows: (Omit<SessionSummary, "adoptedIds"> & { unit: string; proposal: string })[] = [];
  private readonly seen = new Set<string>();
  private readonly bySession = new Map<string, Bucket>();
  private readonly buckets: Bucket[] = [];
  private events = 0;

  /**
   * `guardrails`: also collect `guardrailSessions`, counting adopted conflicts from `conflicts`
   * (`conflictKey` pairs; null when unknown, and the COI share is then left out).
   */
  private readonly guardrails?: { conflicts: ReadonlySet<string> | null };
  private readonly keepSessions: boolean;

  constructor(options: { guardrails?: { conflicts: ReadonlySet<string> | null }; sessions?: boolean } = {}) {
    this.guardrails = options.guardrails;
    this.keepSessions = options.sessions === true;
  }

  /** `t`: the event's time in ms when the caller has read it already (`isoTime(e.at)`). */
  add(e: OnlineEvent, t: number = isoTime(e.at)): void {
    this.events++;
    const before = this.seen.size;
    this.seen.add(e.eventId);
    if (this.seen.size === before) return;
    const head = this.bySession.get(e.sessionId) ?? null;
    let b = head;
    while (b !== null && b.unit !== e.unitId) b = b.next;
    if (!b) {
      b = {
        unit: e.unitId,
        proposal: e.proposalId,
        events: [],
        times: [],
        arm: e.arm,
        mixed: false,
        next: head,
      };
      this.bySession.set(e.sessionId, b);
      this.buckets.push(b);
    } else if (b.arm !== e.arm) b.mixed = true;
    b.events.push({
      eventId: e.eventId,
      type: e.type,
      arm: b.arm,
      candidateId: e.candidateId,
      items: e.items,
    });
    b.times.push(t);
  }

  build(): StreamTotals {
    const { buckets, events } = this;
    const uniqueEvents = this.seen.size;
    // A unit seen in more than one arm, within a session or across its sessions, is excluded.
    const armOfUnit = new Map<string, string>();
    const excluded = new Set<string>();
    for (const b of buckets) {
      const arm = armOfUnit.get(b.unit);
      if (arm === undefined) armOfUnit.set(b.unit, b.arm);
      if (b.mixed || (arm !== undefined && arm !== b.arm)) excluded.add(b.unit);
    }
    const quality: DataQuality = {
      duplicateEvents: events - uniqueEvents,
      sessionsWithoutImpression: 0,
      eventsAboutUnshownCandidates: 0,
      eventsOfExcludedUnits: 0,
    };
    const units = new Map<string, UnitTotals>();
    for (const { unit, proposal, events: list, times } of buckets) {
      if (excluded.has(unit)) {
        quality.eventsOfExcludedUnits += list.length;
        continue;
      }
      sortByTime(list, times);
      const s = summarizeSession(list, times);
      if (s.impressions === 0) {
        quality.sessionsWithoutImpression++;
        continue;
      }
      quality.eventsAboutUnshownCandidates += s.unshownEvents;
      let u = units.get(unit);
      if (!u) units.set(unit, (u = { unit, arm: s.arm, ...emptySums() }));
      addSession(u, s);
      if (this.guardrails) this.addGuardrailSession(unit, proposal, s);
      if (this.keepSessions) this.sessionRows.push({ ...s, unit, proposal });
    }
    const sorted = [...units.values()].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
    return {
      units: sorted,
      excludedUnits: excluded.size,
      allUnits: armOfUnit.size,
      events,
      uniqueEvents,
      quality,
    };
  }

  private addGuardrailSession(unit: string, proposal: string, s: SessionSummary) {
    const { conflicts } = this.guardrails!;
    this.guardrailSessions.push({
      unit,
      arm: s.arm,
      clicked: s.clicked,
      adopted: s.adopted,
      coiAdopted: conflicts ? coiCount(conflicts, proposal, s.adoptedIds) : null,
      minutesToFinish: s.minutesToFinish,
      adoptedIds: s.adoptedIds,
    });
  }
}

/** The sums every online metric is a ratio of, over some sessions (a unit's, a day's). */
export interface SessionSums {
  sessions: number;
  shown: number;
  clicked: number;
  adopted: number;
  adoptedRankSum: number;
  successfulSessions: number;
}

export function emptySums(): SessionSums {
  return { sessions: 0, shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, successfulSessions: 0 };
}

/** Adds one session to running sums. */
export function addSession(
  t: SessionSums,
  s: { shown: number; clicked: number; adopted: number; adoptedRankSum: number },
) {
  t.sessions++;
  t.shown += s.shown;
  t.clicked += s.clicked;
  t.adopted += s.adopted;
  t.adoptedRankSum += s.adoptedRankSum;
  if (s.adopted > 0) t.successfulSessions++;
}

/** One session's contribution to the online metrics (DESIGN.md "Online metrics"). */
export interface SessionSummary {
  /** The arm of its first event. */
  arm: string;
  impressions: number;
  /** Distinct candidates its impressions showed. */
  shown: number;
  /** Shown candidates clicked at least once. */
  clicked: number;
  /** Shown candidates adopted at the end (after unadopts). */
  adopted: number;
  /** Sum of the adopted candidates' ranks. */
  adoptedRankSum: number;
  /** Clicks, adopts and unadopts of candidates the session never showed. */
  unshownEvents: number;
  /** The adopted shown candidates (the guardrails' conflict-of-interest share reads them). */
  adoptedIds: string[];
  /** Minutes from the first impression to the first `finish`; null when unfinished or without times. */
  minutesToFinish: number | null;
}

/**
 * Summarizes one session's events, already in (at, eventId) order: a candidate's rank is its
 * position in the first impression that showed it; clicks and the final adopt state count only for
 * shown candidates. Shared by `assay online` and the database's per-session table.
 */
export function summarizeSession(
  list: readonly Pick<OnlineEvent, "type" | "arm" | "candidateId" | "items">[],
  times?: readonly number[],
): SessionSummary {
  // The first impression's items; ranks of a single-impression session are their positions here.
  let first: readonly string[] | null = null;
  // Ranks, once a second impression adds candidates.
  let ranks: Map<string, number> | null = null;
  const clicked = new Set<string>();
  const adoptState = new Map<string, boolean>();
  let impressions = 0;
  // Times (ms) of the first impression and the first finish, when the caller has the events' times.
  let openedAt: number | null = null;
  let finishedAt: number | null = null;
  for (let k = 0; k < list.length; k++) {
    const e = list[k];
    if (e.type === "finish") {
      if (finishedAt === null && times) finishedAt = times[k];
    } else if (e.type === "impression") {
      if (openedAt === null && times) openedAt = times[k];
      impressions++;
      const items = e.items!;
      if (!first) first = items;
      else {
        if (!ranks) ranks = new Map(first.map((c, i) => [c, i + 1]));
        for (let i = 0; i < items.length; i++) if (!ranks.has(items[i])) ranks.set(items[i], i + 1);
      }
    } else if (e.type === "click") clicked.add(e.candidateId!);
    else adoptState.set(e.candidateId!, e.type === "adopt");
  }
  // 1-based rank in the session's shown list, 0 when the candidate was never shown.
  const rankOf = (candidate: string) =>
    ranks ? (ranks.get(candidate) ?? 0) : first ? first.indexOf(candidate) + 1 : 0;
  let unshownEvents = 0;
  for (const e of list)
    if (e.type !== "impression" && e.type !== "finish" && rankOf(e.candidateId!) === 0) unshownEvents++;
  let clickedShown = 0;
  for (const c of clicked) if (rankOf(c) > 0) clickedShown++;
  let adopted = 0;
  let adoptedRankSum = 0;
  const adoptedIds: string[] = [];
  for (const [c, on] of adoptState) {
    const rank = on ? rankOf(c) : 0;
    if (rank > 0) {
      adopted++;
      adoptedRankSum += rank;
      adoptedIds.push(c);
    }
  }
  return {
    arm: list[0].arm,
    impressions,
    shown: ranks ? ranks.size : (first?.length ?? 0),
    clicked: clickedShown,
    adopted,
    adoptedRankSum,
    unshownEvents,
    adoptedIds,
    // A finish logged before the list was seen (clock skew, a replayed file) gives no time.
    minutesToFinish:
      openedAt !== null && finishedAt !== null && finishedAt >= openedAt
        ? (finishedAt - openedAt) / 60_000
        : null,
  };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

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
    const hour = d(11) * 10 + d(12),
      minute = d(14) * 10 + d(15),
      second = d(17) * 10 + d(18);
    // Anything unusual (a stray character, an impossible date or time) is left to Date.parse.
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const valid =
      at.charCodeAt(4) === 45 &&
      at.charCodeAt(7) === 45 &&
      at.charCodeAt(13) === 58 &&
      at.charCodeAt(16) === 58 &&
      (n === 20 || at.charCodeAt(19) === 46) &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]) &&
      hour <= 23 &&
      minute <= 59 &&
      second <= 59 &&
      ms >= 0 &&
      ms <= 999 &&
      year >= 1000;
    if (valid) return Date.UTC(year, month - 1, day, hour, minute, second, ms);
  }
  return Date.parse(at);
}

/** Insertion sort of a session's events by (time, eventId), its times kept alongside. */
function sortByTime(events: SessionEvent[], times: number[]) {
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

const FIELDS = [
  "sessions",
  "shown",
  "clicked",
  "adopted",
  "adoptedRankSum",
  "successfulSessions",
] as const satisfies readonly (keyof SessionSums)[];

/** The units' sums as one typed array per field, for the resampling loops. */
function columnsOf(units: readonly UnitTotals[]): Float64Array[] {
  return FIELDS.map((f) => Float64Array.from(units, (u) => u[f]));
}

function sumColumns(columns: Float64Array[], counts?: ArrayLike<number>): SessionSums {
  const out = {} as SessionSums;
  FIELDS.forEach((f, j) => {
    const col = columns[j];
    let s = 0;
    if (counts) for (let i = 0; i < col.length; i++) s += counts[i] * col[i];
    else for (let i = 0; i < col.length; i++) s += col[i];
    out[f] = s;
  });
  return out;
}

function sumTotals(units: readonly UnitTotals[]): SessionSums {
  return sumColumns(columnsOf(units));
}

export function onlineReport(events: readonly OnlineEvent[], options: OnlineOptions = {}): OnlineReport {
  return reportFromTotals(unitTotals(events), options);
}

/** Totals of disjoint sets of units (each unit's events all in one part) combined. */
export function mergeTotals(parts: readonly StreamTotals[]): StreamTotals {
  const quality: DataQuality = {
    duplicateEvents: 0,
    sessionsWithoutImpression: 0,
    eventsAboutUnshownCandidates: 0,
    eventsOfExcludedUnits: 0,
  };
  for (const p of parts)
    for (const k of Object.keys(quality) as (keyof DataQuality)[]) quality[k] += p.quality[k];
  const sum = (f: (p: StreamTotals) => number) => parts.reduce((n, p) => n + f(p), 0);
  // Units in a stable order, whatever part they came from, so resampling does not depend on the split.
  const units = parts
    .flatMap((p) => p.units)
    .sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
  return {
    units,
    excludedUnits: sum((p) => p.excludedUnits),
    allUnits: sum((p) => p.allUnits),
    events: sum((p) => p.events),
    uniqueEvents: sum((p) => p.uniqueEvents),
    quality,
  };
}

export function reportFromTotals(totals: StreamTotals, options: OnlineOptions = {}): OnlineReport {
  const byArm = new Map<string, UnitTotals[]>();
  for (const u of totals.units) {
    if (!byArm.has(u.arm)) byArm.set(u.arm, []);
    byArm.get(u.arm)!.push(u);
  }
  const armNames = [...new Set([...byArm.keys(), ...Object.keys(options.weights ?? {})])].sort();
  const arms: Record<string, ArmReport> = {};
  for (const arm of armNames) arms[arm] = armReport(byArm.get(arm) ?? []);
  const weights = options.weights ?? Object.fromEntries(armNames.map((a) => [a, 1 / armNames.length]));
  const srm =
    armNames.length >= 2
      ? sampleRatioMismatch(Object.fromEntries(armNames.map((a) => [a, arms[a].units])), weights)
      : null;
  const control = options.control ?? armNames[0];
  if (control !== undefined && !armNames.includes(control))
    throw new Error(`the control arm ${control} has no units (arms: ${armNames.join(", ")})`);
  const comparisons =
    options.intervals && armNames.length > 0
      ? armIntervalsAndComparisons({ byArm, armNames, arms, control }, options)
      : [];
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
    ...(options.intervalKind ? { intervals: options.intervalKind } : {}),
    ...(options.intervalKind === "sequential" ? { nStar: options.nStar ?? DEFAULT_N_STAR } : {}),
  };
}

/** One arm's counts and metrics over its units. */
function armReport(units: readonly UnitTotals[]): ArmReport {
  const t = sumTotals(units);
  return {
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

/** The arms as the intervals and comparisons read them. */
interface ArmsOf {
  byArm: ReadonlyMap<string, UnitTotals[]>;
  armNames: string[];
  arms: Record<string, ArmReport>;
  control: string;
}

/**
 * Each arm's metric intervals (set on `arms`) and each treatment's comparison with the control: one
 * cluster bootstrap over units serves both, then a permutation p-value (or, asked for, a sequential
 * interval) per metric.
 */
function armIntervalsAndComparisons(
  { byArm, armNames, arms, control }: ArmsOf,
  options: OnlineOptions,
): Comparison[] {
  const treatments = armNames.filter((a) => a !== control);
  const intervals = bootstrapArmMetrics(byArm, armNames, treatments, control, options);
  armNames.forEach((arm, i) => {
    arms[arm].ci = Object.fromEntries(onlineMetrics.map((m, j) => [m, intervals[i * 4 + j]])) as Record<
      OnlineMetric,
      Interval | null
    >;
  });
  const comparisons: Comparison[] = [];
  treatments.forEach((arm, t) => {
    const pValues = permutationPValues(byArm.get(arm) ?? [], byArm.get(control) ?? [], options);
    onlineMetrics.forEach((metric, j) => {
      const a = arms[arm][metric];
      const c = arms[control][metric];
      const base = armNames.length * 4 + t * 8 + j * 2;
      const sequential =
        options.intervalKind === "sequential"
          ? sequentialComparison(byArm.get(arm) ?? [], byArm.get(control) ?? [], metric, a, c, options)
          : null;
      comparisons.push({
        arm,
        control,
        metric,
        difference: a === null || c === null ? null : a - c,
        relativeLift: a === null || c === null || c === 0 ? null : a / c - 1,
        ci: sequential ? sequential.ci : intervals[base],
        liftCi: sequential ? sequential.liftCi : intervals[base + 1],
        pValue: pValues[metric],
      });
    });
  });
  return comparisons;
}

/** Cluster-bootstrap intervals, per resample: each arm's four metrics, then each treatment's difference and lift vs control. */
function bootstrapArmMetrics(
  byArm: ReadonlyMap<string, UnitTotals[]>,
  armNames: string[],
  treatments: string[],
  control: string,
  options: OnlineOptions,
) {
  const groups = armNames.map((a) => byArm.get(a) ?? []);
  const groupColumns = groups.map(columnsOf);
  const controlIndex = armNames.indexOf(control);
  const k = armNames.length * 4 + treatments.length * 8;
  return bootstrapGroups(
    groups.map((g) => g.length),
    (counts) => {
      const values = groupColumns.map((c, i) => sumColumns(c, counts[i]));
      const out: (number | null)[] = [];
      for (const v of values) for (const m of onlineMetrics) out.push(metricOf(v, m));
      for (const arm of treatments) {
        for (const m of onlineMetrics) {
          const a = metricOf(values[armNames.indexOf(arm)], m);
          const c = metricOf(values[controlIndex], m);
          out.push(
            a === null || c === null ? null : a - c,
            a === null || c === null || c === 0 ? null : a / c - 1,
          );
        }
      }
      return out;
    },
    k,
    options,
  );
}

/**
 * Two-sided permutation p-values over units, one per metric: arm labels are shuffled between the two
 * arms' units (the randomization unit); each shuffle serves every metric, and the second group's
 * sums are the pooled sums minus the first's.
 */
function permutationPValues(
  treatment: readonly UnitTotals[],
  control: readonly UnitTotals[],
  options: BootstrapOptions,
): Record<OnlineMetric, number | null> {
  const observedA = sumTotals(treatment);
  const observedC = sumTotals(control);
  const observed = onlineMetrics.map((m) => {
    const a = metricOf(observedA, m);
    const c = metricOf(observedC, m);
    return a === null || c === null ? null : Math.abs(a - c);
  });
  const pooled = columnsOf([...treatment, ...control]);
  const total = sumColumns(pooled);
  const n = pooled[0].length;
  const nA = treatment.length;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const B = options.B ?? 2000;
  const rng = createRng(`${options.seed ?? DEFAULT_SEED}:permutation`);
  const extreme = onlineMetrics.map(() => 0);
  const a = emptySums();
  const c = emptySums();
  const sums = new Float64Array(FIELDS.length);
  for (let r = 0; r < B; r++) {
    // A partial Fisher–Yates shuffle: the first nA places are a uniform random subset (rng.int inlined).
    for (let i = 0; i < nA; i++) {
      const j = i + Math.floor((rng.nextUint32() / 4294967296) * (n - i));
      const tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
    sums.fill(0);
    for (let i = 0; i < nA; i++) {
      const o = order[i];
      for (let k = 0; k < sums.length; k++) sums[k] += pooled[k][o];
    }
    for (let k = 0; k < FIELDS.length; k++) {
      a[FIELDS[k]] = sums[k];
      c[FIELDS[k]] = total[FIELDS[k]] - sums[k];
    }
    onlineMetrics.forEach((m, j) => {
      const va = metricOf(a, m);
      const vc = metricOf(c, m);
      if (
        observed[j] !== null &&
        va !== null &&
        vc !== null &&
        Math.abs(va - vc) >= observed[j]! * (1 - 1e-12)
      )
        extreme[j]++;
    });
  }
  return Object.fromEntries(
    onlineMetrics.map((m, j) => [m, observed[j] === null ? null : (extreme[j] + 1) / (B + 1)]),
  ) as Record<OnlineMetric, number | null>;
}

/**
 * The same daily values from per-session sums (the SQL path): each session counts from the day of its
 * first event, so the app needs no event in memory.
 */
export function cumulativeDailyFromSessions(
  sessions: readonly {
    arm: string;
    day: string;
    shown: number;
    clicked: number;
    adopted: number;
    adoptedRankSum: number;
  }[],
) {
  // Sums per day and arm first (O(sessions)), then running sums over the few days.
  const perDay = new Map<string, Map<string, SessionSums>>();
  for (const s of sessions) {
    let arms = perDay.get(s.day);
    if (!arms) perDay.set(s.day, (arms = new Map()));
    let t = arms.get(s.arm);
    if (!t) arms.set(s.arm, (t = emptySums()));
    addSession(t, s);
  }
  const running = new Map<string, SessionSums>();
  return [...perDay.keys()].sort().map((day) => {
    for (const [arm, t] of perDay.get(day)!) {
      const r = running.get(arm) ?? emptySums();
      running.set(arm, {
        sessions: r.sessions + t.sessions,
        shown: r.shown + t.shown,
        clicked: r.clicked + t.clicked,
        adopted: r.adopted + t.adopted,
        adoptedRankSum: r.adoptedRankSum + t.adoptedRankSum,
        successfulSessions: r.successfulSessions + t.successfulSessions,
      });
    }
    return {
      day,
      arms: Object.fromEntries(
        [...running].map(([arm, t]) => [
          arm,
          Object.fromEntries(onlineMetrics.map((m) => [m, metricOf(t, m)])),
        ]),
      ),
    };
  });
}
