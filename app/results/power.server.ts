import { z } from "zod";
import type { Db } from "../../db/platform/client";
import { listExperiments, getExperiment, type ExperimentWithArms } from "../../db/experiments/experiments";
import { sqlPrePeriodTotals, sqlStreamTotals } from "../../db/experiments/online-sql";
import { DEFAULT_PRE_PERIOD_DAYS } from "../../scripts/online/decide";
import {
  abSampleSize,
  adjustedAlpha,
  cupedVarianceFactor,
  designEffect,
  interleavingSessions,
  minimumDetectableEffect,
} from "../../scripts/online/power";
import {
  powerHistory,
  prePeriodRho,
  type PowerHistory,
  type PrePeriodRho,
} from "../../scripts/online/power-history";

const fraction = (what: string) =>
  z.coerce
    .number({ invalid_type_error: `${what} must be a number` })
    .gt(0, `${what} must be above 0`)
    .lt(1, `${what} must be below 1`);
const percent = (what: string) =>
  z.coerce
    .number({ invalid_type_error: `${what} must be a number` })
    .gt(0, `${what} must be above 0%`)
    .lt(100, `${what} must be below 100%`);

/**
 * The power section's query (a GET form on the experiment form's page): `power=ab` or
 * `power=interleaving` says which calculation was asked for; rates are entered in percent.
 */
export const powerQuerySchema = z.object({
  power: z
    .enum(["ab", "interleaving"], { errorMap: () => ({ message: "power must be ab or interleaving" }) })
    .optional(),
  metric: z
    .enum(["adoption", "click"], { errorMap: () => ({ message: "the metric must be adoption or click" }) })
    .default("adoption"),
  baseline: percent("the baseline").optional(),
  lift: z.coerce
    .number({ invalid_type_error: "the lift must be a number" })
    .refine((v) => v !== 0, "the lift must not be 0")
    .optional(),
  alpha: fraction("α").default(0.05),
  power1: fraction("the power").default(0.8),
  sessionsPerConvener: z.coerce
    .number({ invalid_type_error: "sessions per convener must be a number" })
    .min(1, "sessions per convener must be at least 1")
    .optional(),
  icc: z.coerce
    .number({ invalid_type_error: "the ICC must be a number" })
    .min(0, "the ICC must be between 0 and 1")
    .max(1, "the ICC must be between 0 and 1")
    .optional(),
  winRate: percent("the win rate").optional(),
  /** CUPED's ρ, the correlation of a convener's metric with its pre-period value; empty = no CUPED. */
  rho: z.coerce
    .number({ invalid_type_error: "ρ (CUPED's pre-period correlation) must be a number" })
    .min(-1, "ρ (CUPED's pre-period correlation) must be between −1 and 1")
    .max(1, "ρ (CUPED's pre-period correlation) must be between −1 and 1")
    .refine(
      (v) => Math.abs(v) < 1,
      "ρ of ±1 would need no data at all; give a correlation strictly between −1 and 1",
    )
    .optional(),
  /** The slices the result will be read in (subjects): each at α/slices. */
  slices: z.coerce
    .number({ invalid_type_error: "the number of slices must be a whole number" })
    .int("the number of slices must be a whole number")
    .min(1, "the number of slices must be at least 1")
    .max(1000, "the number of slices must be at most 1,000")
    .default(1),
});
export type PowerQuery = z.infer<typeof powerQuerySchema>;

export interface AbPowerPlan {
  metric: "adoption" | "click";
  alpha: number;
  power: number;
  baseline: number;
  baselineFrom: "entered" | "history";
  target: number;
  sessionsPerConvener: number;
  sessionsPerConvenerFrom: "entered" | "history" | "default";
  icc: number;
  iccFrom: "entered" | "history" | "default";
  /** CUPED's ρ and variance factor 1 − ρ² (null ρ, factor 1: no CUPED). */
  rho: number | null;
  /** Where ρ came from: entered, or measured on earlier experiments (`rhoHistory`). */
  rhoFrom: "entered" | "history" | null;
  rhoHistory: PrePeriodRho | null;
  varianceFactor: number;
  /** Slices read together, and the α each is read at (α / slices). The per-arm figures are per slice. */
  slices: number;
  alphaPerSlice: number;
  designEffect: number;
  effectiveSessionsPerArm: number;
  perArm: { conveners: number; sessions: number };
  total: { conveners: number; sessions: number };
}

export type PowerAnswer =
  | { kind: "ab"; plan: AbPowerPlan; error: null }
  | {
      kind: "interleaving";
      plan: { winRate: number; alpha: number; power: number; sessions: number };
      error: null;
    }
  | { kind: "ab" | "interleaving"; plan: null; error: string };

/**
 * The calculation the power section asked for, as `assay power` makes it: an A/B test's conveners and
 * sessions per arm (baseline, sessions per convener and ICC from the history unless entered; the
 * history is adoption only, as in the CLI), or an interleaving experiment's sessions with a preference.
 * Null when nothing was asked; a sentence naming the problem when the inputs cannot be sized.
 */
export function powerAnswer(
  q: PowerQuery,
  history: PowerHistory | null,
  rhoHistory: PrePeriodRho | null = null,
): PowerAnswer | null {
  if (!q.power) return null;
  return q.power === "interleaving" ? interleavingAnswer(q) : abAnswer(q, history, rhoHistory);
}

/** The sessions with a preference an interleaving experiment needs to detect the win rate asked for. */
function interleavingAnswer(q: PowerQuery): PowerAnswer {
  if (q.winRate === undefined)
    return {
      kind: "interleaving",
      plan: null,
      error: "Give the challenger's win rate worth detecting, such as 55%.",
    };
  if (q.winRate === 50)
    return {
      kind: "interleaving",
      plan: null,
      error: "A win rate of 50% is no preference; give the win rate worth detecting, such as 55%.",
    };
  return {
    kind: "interleaving",
    plan: {
      winRate: q.winRate / 100,
      alpha: q.alpha,
      power: q.power1,
      sessions: interleavingSessions(q.winRate / 100, { alpha: q.alpha, power: q.power1 }),
    },
    error: null,
  };
}

/**
 * The rates an A/B test compares: the baseline (entered, else the history's) and the baseline plus the
 * lift; or the sentence saying why they cannot be sized.
 */
function abRates(
  q: PowerQuery,
  fromHistory: PowerHistory | null,
): { baseline: number; target: number } | { error: string } {
  const baseline = q.baseline !== undefined ? q.baseline / 100 : (fromHistory?.baseline ?? null);
  if (baseline === null)
    return {
      error:
        q.metric === "adoption"
          ? "There is no history to take a baseline from yet; enter the baseline."
          : "The history gives the adoption baseline only; enter the click baseline.",
    };
  if (!(baseline > 0 && baseline < 1))
    return {
      error: `The history's baseline is ${baseline}; a rate of 0 or 1 cannot be sized, enter the baseline.`,
    };
  if (q.lift === undefined)
    return { error: "Enter the smallest lift worth detecting, in percentage points (such as 5)." };
  const target = baseline + q.lift / 100;
  if (!(target > 0 && target < 1))
    return {
      error: `A lift of ${q.lift} points on a baseline of ${+(baseline * 100).toFixed(2)}% gives ${+(target * 100).toFixed(2)}%, not a rate strictly between 0% and 100%.`,
    };
  return { baseline, target };
}

/**
 * An A/B test's conveners and sessions per arm; the baseline, sessions per convener and ICC come from
 * the history (adoption only) unless entered, and each says where it came from.
 */
function abAnswer(q: PowerQuery, history: PowerHistory | null, rhoHistory: PrePeriodRho | null): PowerAnswer {
  const fromHistory = q.metric === "adoption" ? history : null;
  const rates = abRates(q, fromHistory);
  if ("error" in rates) return { kind: "ab", plan: null, error: rates.error };
  const { baseline, target } = rates;
  const m = q.sessionsPerConvener ?? fromHistory?.sessionsPerConvener ?? 1;
  const icc = q.icc ?? Math.max(0, fromHistory?.icc ?? 0);
  // ρ entered, else (adoption only, as the history) the one earlier experiments measured.
  const measured = q.metric === "adoption" ? rhoHistory : null;
  const rho = q.rho ?? measured?.rho;
  const varianceFactor = rho === undefined ? 1 : cupedVarianceFactor(rho);
  const alphaPerSlice = adjustedAlpha(q.alpha, q.slices);
  const plan = abSampleSize(baseline, target, m, icc, {
    alpha: alphaPerSlice,
    power: q.power1,
    varianceFactor,
  });
  return {
    kind: "ab",
    error: null,
    plan: {
      metric: q.metric,
      alpha: q.alpha,
      power: q.power1,
      baseline,
      baselineFrom: q.baseline !== undefined ? "entered" : "history",
      target,
      sessionsPerConvener: m,
      sessionsPerConvenerFrom:
        q.sessionsPerConvener !== undefined
          ? "entered"
          : fromHistory?.sessionsPerConvener != null
            ? "history"
            : "default",
      icc,
      iccFrom: q.icc !== undefined ? "entered" : fromHistory?.icc != null ? "history" : "default",
      rho: rho ?? null,
      rhoFrom: q.rho !== undefined ? "entered" : measured ? "history" : null,
      rhoHistory: measured,
      varianceFactor,
      slices: q.slices,
      alphaPerSlice,
      designEffect: plan.designEffect,
      effectiveSessionsPerArm: plan.effectiveN,
      perArm: { conveners: plan.convenersPerArm, sessions: plan.sessionsPerArm },
      total: { conveners: 2 * plan.convenersPerArm, sessions: 2 * plan.sessionsPerArm },
    },
  };
}

/**
 * The history the power section reads: the sessions of the control arm of every A/B experiment that
 * has started (the baseline is the rate of the system in use). Null when there are none.
 */
export async function controlHistory(db: Db): Promise<PowerHistory | null> {
  const started = (await listExperiments(db)).filter(
    (e) => e.kind === "ab" && e.status !== "draft" && e.events > 0,
  );
  const units = [];
  for (const { key } of started) {
    const experiment = (await getExperiment(db, key))!;
    const control = experiment.arms.find((a) => a.isControl)!.key;
    // Units keep their experiment in the name: one convener in two experiments is two groups.
    units.push(
      ...(await sqlStreamTotals(db, experiment)).units
        .filter((u) => u.arm === control)
        .map((u) => ({ ...u, unit: `${key}:${u.unit}` })),
    );
  }
  const history = powerHistory(units);
  return history.sessions > 0 ? history : null;
}

/**
 * CUPED's ρ before launch from the organisation's own events: for every started A/B experiment, its
 * conveners' sessions (both arms) against their sessions of the other experiments in the default
 * pre-period (28 days) before its start, as the A/B page's CUPED reads it; pooled over experiments (a
 * convener of two experiments is two pairs). Null when fewer than 3 conveners have both.
 */
export async function historyRho(db: Db): Promise<PrePeriodRho | null> {
  const started = (await listExperiments(db)).filter(
    (e) => e.kind === "ab" && e.status !== "draft" && e.events > 0,
  );
  const pairs = [];
  let experiments = 0;
  for (const { key } of started) {
    const experiment = (await getExperiment(db, key))!;
    const start = experiment.startedAt ?? new Date();
    const from = new Date(start.getTime() - DEFAULT_PRE_PERIOD_DAYS * 86_400_000);
    const pre = await sqlPrePeriodTotals(db, experiment.id, from, start);
    if (pre.size === 0) continue;
    const before = pairs.length;
    for (const u of (await sqlStreamTotals(db, experiment)).units) {
      const p = pre.get(u.unit);
      if (p) pairs.push({ post: u, pre: p });
    }
    if (pairs.length > before) experiments++;
  }
  return prePeriodRho(pairs, experiments);
}

export interface AfterLaunch {
  baseline: number;
  icc: number;
  convenersPerArm: number;
  sessionsPerArm: number;
  /** Smallest absolute rise of the share of sessions with an adoption the data so far detect (α 0.05, power 0.8); null when none up to 100% is. */
  absolute: number | null;
  relative: number | null;
  /** The same read with CUPED, the variance scaled by 1 − ρ² as measured on this experiment's pre-period. */
  cuped: { varianceFactor: number; absolute: number | null; relative: number | null } | null;
  /** The same in one of `count` slices of equal size, read at α / count. */
  slices: { count: number; alphaPerSlice: number; absolute: number | null; relative: number | null } | null;
}

/**
 * The minimum detectable effect on the adoption (session success) rate that an A/B experiment's data
 * so far support, as `assay power --events` computes it on the same events: baseline, ICC and the
 * smaller arm's conveners and sessions from the data, α = 0.05, power 0.8. Null with fewer than two arms
 * seen. `varianceReduction`: CUPED's measured ρ² on the metric (1 − SE²adjusted/SE²unadjusted), when it
 * ran; `slices`: how many slices the page reads (each then gets 1/slices of the sessions, at α/slices).
 */
export async function afterLaunchPower(
  db: Db,
  experiment: ExperimentWithArms,
  options: { varianceReduction?: number | null; slices?: number } = {},
): Promise<AfterLaunch | null> {
  const past = powerHistory((await sqlStreamTotals(db, experiment)).units);
  const arms = Object.values(past.arms);
  if (arms.length < 2 || past.baseline === null || !(past.baseline > 0 && past.baseline < 1)) return null;
  const baseline = past.baseline;
  const icc = Math.max(0, past.icc ?? 0);
  const arm = arms.reduce((x, y) => (y.conveners < x.conveners ? y : x));
  const effective = arm.sessions / designEffect(arm.sessions / arm.conveners, icc);
  const mde = (n: number, s: { alpha?: number; varianceFactor?: number } = {}) => {
    const absolute = minimumDetectableEffect(baseline, n, s);
    return { absolute, relative: absolute === null ? null : absolute / baseline };
  };
  const reduction = options.varianceReduction;
  const varianceFactor =
    reduction !== null && reduction !== undefined && reduction > 0 && reduction < 1 ? 1 - reduction : null;
  const count = options.slices ?? 1;
  return {
    baseline,
    icc,
    convenersPerArm: arm.conveners,
    sessionsPerArm: arm.sessions,
    ...mde(effective),
    cuped: varianceFactor === null ? null : { varianceFactor, ...mde(effective, { varianceFactor }) },
    slices:
      count > 1
        ? {
            count,
            alphaPerSlice: adjustedAlpha(0.05, count),
            ...mde(effective / count, {
              alpha: adjustedAlpha(0.05, count),
              ...(varianceFactor === null ? {} : { varianceFactor }),
            }),
          }
        : null,
  };
}
