/**
 * GrowthBook's stats engine (gbstats, growthbook/growthbook `packages/stats`, checked against 0.8.0 at
 * commit 8f1db445) for ratio metrics: the plain ratio statistic, its regression adjustment (CUPED) with θ
 * pooled over both arms, and the three tests GrowthBook runs on them: Welch's t-test, the sequential
 * (always valid) test and the effect-size Bayesian test. Everything works from per-arm sums, as GrowthBook
 * does from its SQL rows, so the same sums give the same numbers (test/fixtures/cuped-small).
 *
 * Conventions kept from gbstats because the figures must agree with it:
 * - variances of statistics are per unit (divide by n for the mean's variance), with n − 1 moments;
 * - a CUPED arm's `mean` is mean_post − θ·mean_pre (not re-centred): only B − A is an effect;
 * - the relative effect divides by |control's unadjusted mean|;
 * - |θ| < 1e-8 falls back to the plain ratio (no pre-period variance to use);
 * - a test that cannot run (zero variance, zero baseline) gives no result; gbstats prints zeros there,
 *   Assay says why instead.
 */
import { normalCdf, normalQuantile, studentTTwoSidedP } from "../stats/distributions";
import { sequentialHalfWidth, sequentialRhoSquared } from "./sequential";

/** Per-arm sums of a ratio metric m/d over n units, and of the same metric in the pre-period (mp/dp). */
export interface RatioSums {
  n: number;
  /** Σm, Σm², Σd, Σd², Σm·d over the arm's units, in the experiment. */
  mSum: number;
  mSquares: number;
  dSum: number;
  dSquares: number;
  mdProducts: number;
  /** The pre-period (covariate) sums; zero for a unit without pre-period data. */
  mPreSum: number;
  mPreSquares: number;
  dPreSum: number;
  dPreSquares: number;
  mPostMPre: number;
  mPostDPre: number;
  mPreDPost: number;
  mPreDPre: number;
  dPostDPre: number;
}

export type DifferenceType = "absolute" | "relative";

/** An arm's statistic as the tests read it: plain ratio, or regression-adjusted with its gradient. */
export interface ArmStatistic {
  n: number;
  /** The estimate the effect is a difference of (adjusted for CUPED). */
  mean: number;
  /** The plain ratio Σm/Σd (the baseline of relative effects). */
  unadjustedMean: number;
  /** Per-unit variance of `mean`. */
  variance: number;
  cuped?: { theta: number; lambda: number[][]; nabla: number[]; meanDPost: number; meanMPost: number };
}

const sampleVariance = (n: number, sum: number, squares: number) =>
  n <= 1 ? 0 : (squares - (sum * sum) / n) / (n - 1);
const sampleCovariance = (n: number, sumA: number, sumB: number, products: number) =>
  n <= 1 ? 0 : (products - (sumA * sumB) / n) / (n - 1);

/** Var(M/D) by the delta method: Var_M/μ_D² + Var_D·μ_M²/μ_D⁴ − 2·Cov·μ_M/μ_D³ (gbstats `variance_of_ratios`). */
export function varianceOfRatios(meanM: number, varM: number, meanD: number, varD: number, cov: number) {
  if (meanD === 0) return 0;
  return varM / meanD ** 2 + (varD * meanM ** 2) / meanD ** 4 - (2 * cov * meanM) / meanD ** 3;
}

/** gbstats `RatioStatistic`: mean Σm/Σd, per-unit delta-method variance. */
export function ratioStatistic(s: RatioSums): ArmStatistic {
  const mean = s.dSum === 0 ? 0 : s.mSum / s.dSum;
  const meanM = s.n === 0 ? 0 : s.mSum / s.n;
  const meanD = s.n === 0 ? 0 : s.dSum / s.n;
  const variance =
    meanD === 0 || s.n <= 1
      ? 0
      : varianceOfRatios(
          meanM,
          sampleVariance(s.n, s.mSum, s.mSquares),
          meanD,
          sampleVariance(s.n, s.dSum, s.dSquares),
          sampleCovariance(s.n, s.mSum, s.dSum, s.mdProducts),
        );
  return { n: s.n, mean, unadjustedMean: mean, variance };
}

/** The 4×4 covariance matrix of (m_post, d_post, m_pre, d_pre) per unit (gbstats `lambda_matrix`). */
function lambdaMatrix(s: RatioSums): number[][] {
  const v = (sum: number, sq: number) => sampleVariance(s.n, sum, sq);
  const c = (a: number, b: number, p: number) => sampleCovariance(s.n, a, b, p);
  const mdPost = c(s.mSum, s.dSum, s.mdProducts);
  const mPostMPre = c(s.mSum, s.mPreSum, s.mPostMPre);
  const mPostDPre = c(s.mSum, s.dPreSum, s.mPostDPre);
  const dPostMPre = c(s.dSum, s.mPreSum, s.mPreDPost);
  const dPostDPre = c(s.dSum, s.dPreSum, s.dPostDPre);
  const mdPre = c(s.mPreSum, s.dPreSum, s.mPreDPre);
  return [
    [v(s.mSum, s.mSquares), mdPost, mPostMPre, mPostDPre],
    [mdPost, v(s.dSum, s.dSquares), dPostMPre, dPostDPre],
    [mPostMPre, dPostMPre, v(s.mPreSum, s.mPreSquares), mdPre],
    [mPostDPre, dPostDPre, mdPre, v(s.dPreSum, s.dPreSquares)],
  ];
}

/** Means per unit of (m_post, d_post, m_pre, d_pre). */
function betaHat(s: RatioSums): number[] {
  if (s.n === 0) return [0, 0, 0, 0];
  return [s.mSum / s.n, s.dSum / s.n, s.mPreSum / s.n, s.dPreSum / s.n];
}

/** Gradient of m_post/d_post − θ·m_pre/d_pre in the four means (gbstats `nabla`). */
function nablaOf(b: number[], theta: number): number[] {
  if (b[1] === 0 || b[3] === 0) return [0, 0, 0, 0];
  return [1 / b[1], -b[0] / b[1] ** 2, -theta / b[3], (theta * b[2]) / b[3] ** 2];
}

/** x'·M[rows, cols]·y over index ranges. */
function quadratic(x: number[], m: number[][], y: number[], rows: number[], cols: number[]): number {
  let total = 0;
  for (const i of rows) for (const j of cols) total += x[i] * m[i][j] * y[j];
  return total;
}

const POST = [0, 1];
const PRE = [2, 3];
const ALL = [0, 1, 2, 3];

/**
 * θ pooled over both arms (gbstats `compute_theta_regression_adjusted_ratio`): with the gradient taken at
 * θ = 1, θ = −(Cov_A + Cov_B)/(Var_pre,A + Var_pre,B), the slope that minimises the adjusted variance.
 */
export function cupedTheta(a: RatioSums, b: RatioSums): number {
  let cov = 0;
  let varPre = 0;
  for (const s of [a, b]) {
    const lambda = lambdaMatrix(s);
    const nabla = nablaOf(betaHat(s), 1);
    cov += quadratic(nabla, lambda, nabla, PRE, POST);
    varPre += quadratic(nabla, lambda, nabla, PRE, PRE);
  }
  return varPre === 0 ? 0 : -cov / varPre;
}

/** gbstats `RegressionAdjustedRatioStatistic` with a given θ. */
export function cupedStatistic(s: RatioSums, theta: number): ArmStatistic {
  const b = betaHat(s);
  const lambda = lambdaMatrix(s);
  const nabla = nablaOf(b, theta);
  const meanPost = s.dSum === 0 ? 0 : s.mSum / s.dSum;
  const meanPre = s.dPreSum === 0 ? 0 : s.mPreSum / s.dPreSum;
  return {
    n: s.n,
    mean: s.dSum === 0 || s.dPreSum === 0 ? 0 : meanPost - theta * meanPre,
    unadjustedMean: meanPost,
    variance: quadratic(nabla, lambda, nabla, ALL, ALL),
    cuped: { theta, lambda, nabla, meanDPost: b[1], meanMPost: b[0] },
  };
}

/**
 * Both arms' statistics, adjusted when asked: θ pooled, and the plain ratio when |θ| < 1e-8
 * (gbstats `create_theta_adjusted_statistics`).
 */
export function armStatistics(
  control: RatioSums,
  treatment: RatioSums,
  cuped: boolean,
): { control: ArmStatistic; treatment: ArmStatistic; theta: number | null } {
  if (cuped) {
    const theta = cupedTheta(control, treatment);
    if (Math.abs(theta) >= 1e-8)
      return { control: cupedStatistic(control, theta), treatment: cupedStatistic(treatment, theta), theta };
  }
  return { control: ratioStatistic(control), treatment: ratioStatistic(treatment), theta: cuped ? 0 : null };
}

/** The effect's estimate and standard error, or why there is none. */
export type EffectMoments =
  { ok: true; estimate: number; standardError: number; n: number } | { ok: false; reason: string };

/** Variance of the relative effect of two CUPED ratio arms (gbstats `frequentist_variance_relative_cuped_ratio`). */
function relativeCupedVariance(a: ArmStatistic, b: ArmStatistic): number {
  const ca = a.cuped!;
  const cb = b.cuped!;
  if (a.unadjustedMean === 0 || ca.meanDPost === 0) return 0;
  const gAbs = (b.mean - a.mean) * Math.sign(a.unadjustedMean);
  const gRelDen = Math.abs(a.unadjustedMean);
  const nablaA = [
    -(gRelDen + gAbs) / ca.meanDPost / gRelDen ** 2,
    ((ca.meanMPost * gRelDen) / ca.meanDPost ** 2 + (ca.meanMPost * gAbs) / ca.meanDPost ** 2) / gRelDen ** 2,
    -ca.nabla[2] / gRelDen,
    -ca.nabla[3] / gRelDen,
  ];
  const nablaB = cb.nabla.map((x) => x / gRelDen);
  return (
    quadratic(nablaA, ca.lambda, nablaA, ALL, ALL) / a.n +
    quadratic(nablaB, cb.lambda, nablaB, ALL, ALL) / b.n
  );
}

/** gbstats `EffectMoments`: B − A (absolute) or (B − A)/|A unadjusted| (relative) and its standard error. */
export function effectMoments(a: ArmStatistic, b: ArmStatistic, difference: DifferenceType): EffectMoments {
  const relative = difference === "relative";
  let variance: number;
  if (relative && a.cuped && b.cuped) variance = relativeCupedVariance(a, b);
  else if (relative)
    variance = varianceOfRatios(b.unadjustedMean, b.variance / b.n, a.unadjustedMean, a.variance / a.n, 0);
  else variance = b.variance / b.n + a.variance / a.n;
  if (!(a.variance > 0) || !(b.variance > 0) || !(variance > 0))
    return { ok: false, reason: "an arm has zero variance (too few units, or all units alike)" };
  if (a.mean === 0 || a.unadjustedMean === 0)
    return { ok: false, reason: "the control's value is zero, so there is no effect relative to it" };
  const estimate = relative ? (b.mean - a.mean) / Math.abs(a.unadjustedMean) : b.mean - a.mean;
  return { ok: true, estimate, standardError: Math.sqrt(variance), n: a.n + b.n };
}

export interface FrequentistResult {
  effect: number;
  ci: [number, number];
  pValue: number;
  standardError: number;
  dof: number;
}

/** Upper quantile t such that P(|T_dof| > t) = twoSidedP, by bisection on the exact tail. */
export function studentTCritical(twoSidedP: number, dof: number): number {
  let lo = 0;
  let hi = Math.max(1, normalQuantile(1 - twoSidedP / 2) * 4);
  while (studentTTwoSidedP(hi, dof) > twoSidedP) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTTwoSidedP(mid, dof) > twoSidedP) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Welch–Satterthwaite degrees of freedom from the arms' per-unit variances (gbstats `TTest.dof`). */
export function welchDof(a: ArmStatistic, b: ArmStatistic): number {
  return (
    (b.variance / b.n + a.variance / a.n) ** 2 /
    (b.variance ** 2 / (b.n ** 2 * (b.n - 1)) + a.variance ** 2 / (a.n ** 2 * (a.n - 1)))
  );
}

/** gbstats `TwoSidedTTest`: Welch t-test, two-sided p and 1 − α interval. */
export function tTest(
  a: ArmStatistic,
  b: ArmStatistic,
  difference: DifferenceType,
  alpha = 0.05,
): FrequentistResult | { reason: string } {
  const m = effectMoments(a, b, difference);
  if (!m.ok) return { reason: m.reason };
  const dof = welchDof(a, b);
  const half = studentTCritical(alpha, dof) * m.standardError;
  return {
    effect: m.estimate,
    ci: [m.estimate - half, m.estimate + half],
    pValue: studentTTwoSidedP(m.estimate / m.standardError, dof),
    standardError: m.standardError,
    dof,
  };
}

export interface SequentialResult {
  effect: number;
  ci: [number, number];
  pValue: number;
  standardError: number;
  n: number;
}

/**
 * gbstats `SequentialTwoSidedTTest`: the asymptotic confidence sequence over n = units of both arms, and
 * its always-valid p-value min(1, 1/e) with e = exp(ρ²·S/(2(nρ² + 1)))/√(nρ² + 1), S = n·effect²/SE².
 */
export function sequentialTest(
  a: ArmStatistic,
  b: ArmStatistic,
  difference: DifferenceType,
  alpha = 0.05,
  nStar = 5000,
): SequentialResult | { reason: string } {
  const m = effectMoments(a, b, difference);
  if (!m.ok) return { reason: m.reason };
  const half = sequentialHalfWidth(m.standardError ** 2, m.n, { alpha, nStar });
  const rho2 = sequentialRhoSquared(alpha, nStar);
  const s = (m.estimate ** 2 * m.n) / m.standardError ** 2;
  const tr2p1 = m.n * rho2 + 1;
  const eValue = Math.exp((rho2 * s) / (2 * tr2p1)) / Math.sqrt(tr2p1);
  return {
    effect: m.estimate,
    ci: [m.estimate - half, m.estimate + half],
    pValue: Math.min(1 / eValue, 1),
    standardError: m.standardError,
    n: m.n,
  };
}

/** A normal prior on the effect; improper (flat) unless `proper`. Its scale is relative unless said. */
export interface GaussianPrior {
  mean: number;
  variance: number;
  proper: boolean;
  type?: DifferenceType;
}

/** GrowthBook's default: mean 0, sd 0.1 relative, not proper (a flat prior). */
export const DEFAULT_PRIOR: GaussianPrior = { mean: 0, variance: 0.01, proper: false, type: "relative" };

export interface BayesianResult {
  effect: number;
  ci: [number, number];
  chanceToWin: number;
  /** Expected loss of choosing the control and of choosing the treatment. */
  risk: [number, number];
  riskControl: number;
  riskTreatment: number;
  stddev: number;
}

/**
 * Expected loss of each choice under a normal posterior N(μ, σ²) of B − A (gbstats `get_risk`):
 * control E[max(X, 0)] = μ·Φ(μ/σ) + σ·φ(μ/σ), treatment E[max(−X, 0)] = σ·φ(μ/σ) − μ·Φ(−μ/σ).
 */
export function normalRisk(mu: number, sigma: number): [number, number] {
  if (sigma > 0 && Math.abs(mu / sigma) > 37) return [Math.max(mu, 0), Math.max(-mu, 0)];
  const z = mu / sigma;
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  return [mu * normalCdf(z) + sigma * density, sigma * density - mu * normalCdf(-z)];
}

/**
 * gbstats `EffectBayesianABTest`: the data's effect N(estimate, SE²) combined with the normal prior (a
 * relative prior scaled by the control's mean for an absolute effect); chance to win P(B better), which
 * is P(effect < 0) for an `inverse` (lower-is-better) metric, whose risks are swapped too.
 */
export function bayesianTest(
  a: ArmStatistic,
  b: ArmStatistic,
  difference: DifferenceType,
  options: { alpha?: number; inverse?: boolean; prior?: GaussianPrior } = {},
): BayesianResult | { reason: string } {
  const alpha = options.alpha ?? 0.05;
  const m = effectMoments(a, b, difference);
  if (!m.ok) return { reason: m.reason };
  let prior = options.prior ?? DEFAULT_PRIOR;
  if (difference === "absolute" && (prior.type ?? "relative") === "relative") {
    const base = a.unadjustedMean;
    prior = { ...prior, mean: prior.mean * Math.abs(base), variance: prior.variance * base ** 2 };
  }
  const dataVariance = m.standardError ** 2;
  const precision = 1 / dataVariance + (prior.proper ? 1 / prior.variance : 0);
  const mu = prior.proper
    ? (m.estimate / dataVariance + prior.mean / prior.variance) / precision
    : m.estimate;
  const sigma = Math.sqrt(1 / precision);
  const z = normalQuantile(1 - alpha / 2);
  const [gain, loss] = normalRisk(mu, sigma);
  const risk: [number, number] = options.inverse ? [loss, gain] : [gain, loss];
  return {
    effect: mu,
    ci: [mu - z * sigma, mu + z * sigma],
    chanceToWin: options.inverse ? normalCdf(-mu / sigma) : normalCdf(mu / sigma),
    risk,
    riskControl: risk[0],
    riskTreatment: risk[1],
    stddev: sigma,
  };
}
