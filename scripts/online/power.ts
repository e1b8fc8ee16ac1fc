/**
 * Power before launch and the minimum detectable effect after. An A/B test on a rate uses the
 * two-proportion z-test with the pooled variance under H0 (Fleiss, Levin and Paik, "Statistical Methods
 * for Rates and Proportions", 3rd ed. §4.2 without continuity correction; R's power.prop.test and
 * G*Power's "two independent proportions, z test" compute the same n):
 *   n per arm = ( z(1−α/2)·√(2·p̄·(1−p̄)) + z(power)·√(p1(1−p1) + p2(1−p2)) )² / (p2 − p1)²,  p̄ = (p1+p2)/2.
 * That n counts independent observations (sessions). Sessions of one convener are correlated, so it is
 * multiplied by the design effect 1 + (m − 1)·ICC for m sessions per convener (Kish 1965; Donner and
 * Klar 2000), and divided by m for conveners.
 */
import { normalQuantile } from "../stats/distributions";

export interface PowerSettings {
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Power, 1 − β (default 0.8). */
  power?: number;
}

function settings(s: PowerSettings) {
  const alpha = s.alpha ?? 0.05;
  const power = s.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must be between 0 and 1, not ${alpha}`);
  if (!(power > 0 && power < 1)) throw new Error(`power must be between 0 and 1, not ${power}`);
  return { zAlpha: normalQuantile(1 - alpha / 2), zBeta: normalQuantile(power) };
}

/** Observations per arm (unrounded) for the pooled two-proportion z-test to detect p1 → p2. */
export function twoProportionN(p1: number, p2: number, s: PowerSettings = {}): number {
  if (!(p1 > 0 && p1 < 1) || !(p2 > 0 && p2 < 1))
    throw new Error(`both rates must be strictly between 0 and 1, not ${p1} and ${p2}`);
  if (p1 === p2) throw new Error("the lift to detect must not be 0");
  const { zAlpha, zBeta } = settings(s);
  const pBar = (p1 + p2) / 2;
  const root = zAlpha * Math.sqrt(2 * pBar * (1 - pBar)) + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return (root * root) / ((p2 - p1) * (p2 - p1));
}

/** Kish's design effect 1 + (m − 1)·ICC of m observations per cluster (negative ICCs count as 0). */
export function designEffect(m: number, icc: number): number {
  if (!(m >= 1)) throw new Error(`sessions per convener must be at least 1, not ${m}`);
  return 1 + (m - 1) * Math.max(0, icc);
}

/**
 * Intra-class correlation by the one-way ANOVA estimator for unequal group sizes (Donner 1986):
 * (MSB − MSW) / (MSB + (n0 − 1)·MSW), n0 = (N − Σnᵢ²/N)/(k − 1). Groups are units, values their sessions'
 * outcomes. Null when it cannot be estimated (fewer than two groups, or no within-group degrees of freedom).
 */
export function intraClassCorrelation(groups: readonly (readonly number[])[]): number | null {
  const used = groups.filter((g) => g.length > 0);
  const k = used.length;
  const N = used.reduce((s, g) => s + g.length, 0);
  if (k < 2 || N - k < 1) return null;
  const grand = used.reduce((s, g) => s + g.reduce((a, b) => a + b, 0), 0) / N;
  let ssb = 0;
  let ssw = 0;
  for (const g of used) {
    const mean = g.reduce((a, b) => a + b, 0) / g.length;
    ssb += g.length * (mean - grand) ** 2;
    for (const y of g) ssw += (y - mean) ** 2;
  }
  const msb = ssb / (k - 1);
  const msw = ssw / (N - k);
  const n0 = (N - used.reduce((s, g) => s + g.length * g.length, 0) / N) / (k - 1);
  const denominator = msb + (n0 - 1) * msw;
  return denominator === 0 ? null : (msb - msw) / denominator;
}

/**
 * CUPED's factor on an estimate's variance, 1 − ρ² for ρ the correlation of a convener's metric with its
 * pre-period value (Deng, Xu, Kohavi and Walker 2013): the observations needed, and the variance of
 * every term of the z-test, shrink by it.
 */
export function cupedVarianceFactor(rho: number): number {
  if (!(rho >= -1 && rho <= 1)) throw new Error(`ρ must be between −1 and 1, not ${rho}`);
  return 1 - rho * rho;
}

/**
 * The significance level of each of `comparisons` tests read together: Bonferroni's α/k, which is also
 * the strictest (first) step of Holm's procedure, so a plan at α/k has its power under either.
 */
export function adjustedAlpha(alpha: number, comparisons: number): number {
  if (!(Number.isInteger(comparisons) && comparisons >= 1))
    throw new Error(`the number of comparisons must be a whole number of at least 1, not ${comparisons}`);
  return alpha / comparisons;
}

export interface AbPlan {
  baseline: number;
  target: number;
  /** Independent observations (sessions) per arm before the design effect. */
  effectiveN: number;
  designEffect: number;
  sessionsPerArm: number;
  convenersPerArm: number;
}

/**
 * Conveners and sessions per arm to detect baseline → target with m sessions per convener and the given
 * ICC; `varianceFactor` (CUPED's 1 − ρ², 1 without) scales the independent observations needed.
 */
export function abSampleSize(
  baseline: number,
  target: number,
  m = 1,
  icc = 0,
  s: PowerSettings & { varianceFactor?: number } = {},
): AbPlan {
  const factor = s.varianceFactor ?? 1;
  if (!(factor > 0 && factor <= 1)) throw new Error(`the variance factor must be in (0, 1], not ${factor}`);
  const effectiveN = twoProportionN(baseline, target, s) * factor;
  const de = designEffect(m, icc);
  const sessionsPerArm = Math.ceil(effectiveN * de);
  return {
    baseline,
    target,
    effectiveN,
    designEffect: de,
    sessionsPerArm,
    convenersPerArm: Math.ceil(sessionsPerArm / m),
  };
}

/**
 * Sessions with a preference needed for an interleaving experiment to show a win rate w ≠ 0.5: the
 * one-sample normal approximation to the binomial test, variance 0.25 under H0 and w(1 − w) under H1.
 */
export function interleavingSessions(winRate: number, s: PowerSettings = {}): number {
  if (!(winRate > 0 && winRate < 1) || winRate === 0.5)
    throw new Error(`the win rate must be between 0 and 1 and not 0.5, not ${winRate}`);
  const { zAlpha, zBeta } = settings(s);
  const root = zAlpha * 0.5 + zBeta * Math.sqrt(winRate * (1 - winRate));
  return Math.ceil((root * root) / ((winRate - 0.5) * (winRate - 0.5)));
}

/**
 * The smallest absolute increase over the baseline that n observations per arm detect with the given
 * power (with CUPED's `varianceFactor` when given): twoProportionN inverted by bisection (n falls as the lift grows). Null when even a lift to
 * a rate of 1 would need more than n.
 */
export function minimumDetectableEffect(
  baseline: number,
  observedPerArm: number,
  s: PowerSettings & { varianceFactor?: number } = {},
): number | null {
  if (!(observedPerArm > 0)) throw new Error(`the sample size must be positive, not ${observedPerArm}`);
  // CUPED's variance factor f: n observations read with CUPED are worth n / f without it.
  const nPerArm = observedPerArm / (s.varianceFactor ?? 1);
  let lo = 0;
  let hi = 1 - baseline;
  const top = hi * (1 - 1e-9);
  if (twoProportionN(baseline, baseline + top, s) > nPerArm) return null;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (mid === 0 || twoProportionN(baseline, baseline + mid, s) > nPerArm) lo = mid;
    else hi = mid;
  }
  return hi;
}
