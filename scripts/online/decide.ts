/**
 * Decision figures of an A/B experiment in GrowthBook's way (gbstats.ts): per treatment and metric, the
 * effect with its interval and p (frequentist, fixed or sequential) or chance to win and risk
 * (Bayesian), unadjusted and, when asked, with CUPED: the covariate of a unit is the same metric's
 * numerator and denominator over its sessions of the *other* experiments of the events in the
 * pre-period [start − days, start) (the analysed experiment's start: its first event unless given). A
 * unit without pre-period sessions has covariate 0, as GrowthBook's SQL gives it (LEFT JOIN, COALESCE 0).
 */
import {
  armStatistics,
  bayesianTest,
  sequentialTest,
  tTest,
  type BayesianResult,
  type DifferenceType,
  type FrequentistResult,
  type GaussianPrior,
  type RatioSums,
  type SequentialResult,
} from "./gbstats";
import type { OnlineEvent } from "./events";
import {
  emptySums,
  isoTime,
  onlineMetrics,
  UnitTotalsBuilder,
  type OnlineMetric,
  type SessionSums,
  type UnitTotals,
} from "./report";
import { DEFAULT_N_STAR } from "./sequential";

export const DEFAULT_PRE_PERIOD_DAYS = 28;
const DAY_MS = 86_400_000;

export type Engine = "frequentist" | "bayesian";

/** Numerator and denominator of each metric, and whether lower is better (gbstats `inverse`). */
export const METRIC_RATIOS: Record<
  OnlineMetric,
  { m: keyof SessionSums; d: keyof SessionSums; inverse: boolean }
> = {
  ctr: { m: "clicked", d: "shown", inverse: false },
  adoptionRate: { m: "adopted", d: "shown", inverse: false },
  meanAdoptedRank: { m: "adoptedRankSum", d: "adopted", inverse: true },
  sessionSuccessRate: { m: "successfulSessions", d: "sessions", inverse: false },
};

/** An events file's experiments: which one is analysed, its start, and the others' events as history. */
export interface ExperimentSplit {
  experiment: string;
  experiments: string[];
  /** ms since the epoch. */
  start: number;
  analysed: OnlineEvent[];
  history: OnlineEvent[];
  /** Earliest event time in the file (ms), the limit of any pre-period. */
  earliest: number;
}

/**
 * The analysed experiment (the one named, else the one that started last, so that an export of a
 * convener's experiments analyses the newest with the older ones as history) and the rest.
 * Throws a message naming `experiment` when it is not in the events.
 */
export function splitExperiments(events: readonly OnlineEvent[], experiment?: string): ExperimentSplit {
  const starts = new Map<string, number>();
  let earliest = Infinity;
  for (const e of events) {
    const t = isoTime(e.at);
    if (t < earliest) earliest = t;
    const s = starts.get(e.experiment);
    if (s === undefined || t < s) starts.set(e.experiment, t);
  }
  const chosen = chooseExperiment(starts, experiment);
  const analysed: OnlineEvent[] = [];
  const history: OnlineEvent[] = [];
  for (const e of events) (e.experiment === chosen.experiment ? analysed : history).push(e);
  return { ...chosen, analysed, history, earliest };
}

/**
 * Which experiment of a file is analysed, from each experiment's first event time (ms): the one named,
 * else the one that started last. Throws a message naming `experiment` when it is not in the events.
 */
export function chooseExperiment(
  starts: ReadonlyMap<string, number>,
  experiment?: string,
): { experiment: string; experiments: string[]; start: number } {
  const experiments = [...starts.keys()].sort();
  let chosen = experiment;
  if (chosen === undefined) {
    for (const [key, start] of starts)
      if (
        chosen === undefined ||
        start > starts.get(chosen)! ||
        (start === starts.get(chosen)! && key > chosen)
      )
        chosen = key;
  } else if (!starts.has(chosen))
    throw new Error(
      `experiment: "${chosen}" has no events in this file (experiments: ${experiments.join(", ") || "none"})`,
    );
  if (chosen === undefined) throw new Error("events: the file holds no events");
  return { experiment: chosen, experiments, start: starts.get(chosen)! };
}

/**
 * The pre-period's first moment (ms): `days` before the start. Throws a message naming the pre-period when
 * it reaches back before the earliest event: there is no history there to read, and a silent short
 * window would understate the adjustment.
 */
export function prePeriodFrom(start: number, earliest: number, days: number): number {
  if (!(Number.isInteger(days) && days >= 1))
    throw new Error(`pre-period days: must be a whole number of at least 1, not ${days}`);
  const from = start - days * DAY_MS;
  if (from < earliest) {
    const available = Math.floor((start - earliest) / DAY_MS);
    throw new Error(
      `pre-period days: ${days} days before the start (${new Date(start).toISOString()}) reach back to ` +
        `${new Date(from).toISOString()}, before the earliest event (${new Date(earliest).toISOString()}); ` +
        `the events hold ${available} whole day(s) of history`,
    );
  }
  return from;
}

/** Adds a history event to a pre-period builder: arms of earlier experiments do not matter, sessions are per experiment. */
export function addHistoryEvent(builder: UnitTotalsBuilder, e: OnlineEvent, t: number) {
  builder.add({ ...e, arm: "history", sessionId: `${e.experiment}\u0000${e.sessionId}` }, t);
}

/**
 * Each unit's session sums over its history sessions inside [start − days, start), by DESIGN.md's session
 * rules. Arms of earlier experiments do not matter (a unit may have been in A of one and B of another),
 * and a session id is taken per experiment. Throws a message naming the pre-period when it reaches back
 * before the earliest event: there is no history there to read, and a silent short window would
 * understate the adjustment.
 */
export function prePeriodTotals(
  split: Pick<ExperimentSplit, "history" | "start" | "earliest">,
  days: number,
): Map<string, SessionSums> {
  const from = prePeriodFrom(split.start, split.earliest, days);
  const builder = new UnitTotalsBuilder();
  for (const e of split.history) {
    const t = isoTime(e.at);
    if (t >= from && t < split.start) addHistoryEvent(builder, e, t);
  }
  return new Map(builder.build().units.map((u) => [u.unit, u]));
}

/** One arm's gbstats sums of a metric, the pre-period's sums alongside (zero for a unit without any). */
export function ratioSums(
  units: readonly UnitTotals[],
  metric: OnlineMetric,
  pre?: ReadonlyMap<string, SessionSums>,
): RatioSums & { unitsWithPrePeriod: number } {
  const { m: mk, d: dk } = METRIC_RATIOS[metric];
  const s = { n: units.length, mSum: 0, mSquares: 0, dSum: 0, dSquares: 0, mdProducts: 0 };
  const p = { mPreSum: 0, mPreSquares: 0, dPreSum: 0, dPreSquares: 0, mPostMPre: 0 };
  const q = { mPostDPre: 0, mPreDPost: 0, mPreDPre: 0, dPostDPre: 0, unitsWithPrePeriod: 0 };
  const none = emptySums();
  for (const u of units) {
    const m = u[mk];
    const d = u[dk];
    const before = pre?.get(u.unit);
    if (before) q.unitsWithPrePeriod++;
    const mp = (before ?? none)[mk];
    const dp = (before ?? none)[dk];
    s.mSum += m;
    s.mSquares += m * m;
    s.dSum += d;
    s.dSquares += d * d;
    s.mdProducts += m * d;
    p.mPreSum += mp;
    p.mPreSquares += mp * mp;
    p.dPreSum += dp;
    p.dPreSquares += dp * dp;
    p.mPostMPre += m * mp;
    q.mPostDPre += m * dp;
    q.mPreDPost += mp * d;
    q.mPreDPre += mp * dp;
    q.dPostDPre += d * dp;
  }
  return { ...s, ...p, ...q };
}

export type TestOutcome =
  | ({ kind: "frequentist" } & FrequentistResult)
  | ({ kind: "sequential" } & SequentialResult)
  | ({ kind: "bayesian" } & BayesianResult)
  | { kind: "none"; reason: string };

export interface DecisionSettings {
  engine: Engine;
  /** Fixed (t-test) or sequential intervals of the frequentist engine. */
  intervals: "fixed" | "sequential";
  cuped: boolean;
  alpha: number;
  nStar: number;
  prior: GaussianPrior;
}

export interface MetricDecision {
  arm: string;
  control: string;
  metric: OnlineMetric;
  inverse: boolean;
  /** Plain ratios Σm/Σd of control and treatment. */
  baseline: number | null;
  variation: number | null;
  unadjusted: Record<DifferenceType, TestOutcome>;
  cuped?: {
    theta: number;
    unitsWithPrePeriod: { control: number; treatment: number };
    result: Record<DifferenceType, TestOutcome>;
    /**
     * 1 − SE²(CUPED)/SE²(unadjusted) and 1 − width(CUPED)/width(unadjusted), of the absolute effect: the
     * relative effect's variance moves with its estimate, which would blur what the adjustment itself did.
     */
    varianceReduction: number | null;
    intervalNarrowing: number | null;
  };
}

function runTest(
  control: ReturnType<typeof armStatistics>,
  difference: DifferenceType,
  settings: DecisionSettings,
  inverse: boolean,
): TestOutcome {
  const { control: a, treatment: b } = control;
  const r =
    settings.engine === "bayesian"
      ? {
          kind: "bayesian" as const,
          r: bayesianTest(a, b, difference, { alpha: settings.alpha, inverse, prior: settings.prior }),
        }
      : settings.intervals === "sequential"
        ? { kind: "sequential" as const, r: sequentialTest(a, b, difference, settings.alpha, settings.nStar) }
        : { kind: "frequentist" as const, r: tTest(a, b, difference, settings.alpha) };
  if ("reason" in r.r) return { kind: "none", reason: r.r.reason };
  return { kind: r.kind, ...r.r } as TestOutcome;
}

function outcomes(
  stats: ReturnType<typeof armStatistics>,
  settings: DecisionSettings,
  inverse: boolean,
): Record<DifferenceType, TestOutcome> {
  return {
    absolute: runTest(stats, "absolute", settings, inverse),
    relative: runTest(stats, "relative", settings, inverse),
  };
}

const seOf = (o: TestOutcome) =>
  o.kind === "none" ? null : o.kind === "bayesian" ? o.stddev : o.standardError;
const widthOf = (o: TestOutcome) => (o.kind === "none" ? null : o.ci[1] - o.ci[0]);

/** Every treatment's decision figures vs the control, per metric. */
export function decide(
  units: readonly UnitTotals[],
  control: string,
  settings: DecisionSettings,
  pre?: ReadonlyMap<string, SessionSums>,
): MetricDecision[] {
  const byArm = new Map<string, UnitTotals[]>();
  for (const u of units) {
    if (!byArm.has(u.arm)) byArm.set(u.arm, []);
    byArm.get(u.arm)!.push(u);
  }
  const treatments = [...byArm.keys()].filter((a) => a !== control).sort();
  return treatments.flatMap((arm) =>
    onlineMetrics.map((metric) => {
      const a = ratioSums(byArm.get(control) ?? [], metric, pre);
      const b = ratioSums(byArm.get(arm) ?? [], metric, pre);
      const inverse = METRIC_RATIOS[metric].inverse;
      const plain = outcomes(armStatistics(a, b, false), settings, inverse);
      const decision: MetricDecision = {
        arm,
        control,
        metric,
        inverse,
        baseline: a.dSum === 0 ? null : a.mSum / a.dSum,
        variation: b.dSum === 0 ? null : b.mSum / b.dSum,
        unadjusted: plain,
      };
      if (settings.cuped) {
        const stats = armStatistics(a, b, true);
        const result = outcomes(stats, settings, inverse);
        const [seU, seC, wU, wC] = [
          seOf(plain.absolute),
          seOf(result.absolute),
          widthOf(plain.absolute),
          widthOf(result.absolute),
        ];
        decision.cuped = {
          theta: stats.theta ?? 0,
          unitsWithPrePeriod: { control: a.unitsWithPrePeriod, treatment: b.unitsWithPrePeriod },
          result,
          varianceReduction: seU && seC !== null ? 1 - seC ** 2 / seU ** 2 : null,
          intervalNarrowing: wU && wC !== null ? 1 - wC / wU : null,
        };
      }
      return decision;
    }),
  );
}

export const DEFAULT_DECISION_SETTINGS: DecisionSettings = {
  engine: "frequentist",
  intervals: "fixed",
  cuped: false,
  alpha: 0.05,
  nStar: DEFAULT_N_STAR,
  prior: { mean: 0, variance: 0.01, proper: false, type: "relative" },
};
