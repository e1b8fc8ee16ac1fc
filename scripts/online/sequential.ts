/**
 * Always-valid (sequential) intervals: GrowthBook's asymptotic confidence sequences (Waudby-Smith,
 * Arnold, Wu, Ramdas and Howard, "Time-uniform central limit theory and asymptotic confidence sequences",
 * arXiv 2103.06476: eq. 161 for ρ, eq. 150 / 9 for the half-width), as GrowthBook's gbstats computes them
 * (`sequential_rho`, `sequential_interval_halfwidth`). Unlike a fixed interval, the chance that the
 * sequence ever excludes the truth, at any of however many looks, stays below α: an analyst may look
 * every day. The price is width: about 1.7 times the fixed interval near n = N*.
 */
import type { Interval } from "../stats/bootstrap";

/** GrowthBook's default tuning N*: the sample size at which the sequence is tightest. */
export const DEFAULT_N_STAR = 5000;

export interface SequentialOptions {
  /** Two-sided error rate over all looks (default 0.05). */
  alpha?: number;
  /** Tuning parameter N* (default 5,000), in the same units as n. */
  nStar?: number;
}

/** ρ² = (−2 ln α + ln(1 − 2 ln α)) / N*: the mixing parameter that makes the sequence tightest near n = N*. */
export function sequentialRhoSquared(alpha: number, nStar: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must be between 0 and 1, not ${alpha}`);
  if (!(nStar > 0)) throw new Error(`the tuning parameter N* must be positive, not ${nStar}`);
  const minus2LogAlpha = -2 * Math.log(alpha);
  return (minus2LogAlpha + Math.log(minus2LogAlpha + 1)) / nStar;
}

/**
 * Half-width of the two-sided confidence sequence for an estimate whose variance (squared standard
 * error) is `variance`, after n observations in all (both arms together, as GrowthBook counts them):
 * √(s²) · √( 2(nρ² + 1) · ln(√(nρ² + 1) / α) / (nρ)² ), where s² = variance · n is the per-observation
 * variance the paper's formula takes.
 */
export function sequentialHalfWidth(variance: number, n: number, options: SequentialOptions = {}): number {
  const alpha = options.alpha ?? 0.05;
  const rho2 = sequentialRhoSquared(alpha, options.nStar ?? DEFAULT_N_STAR);
  if (!(variance >= 0)) throw new Error(`the variance must be a number of at least 0, not ${variance}`);
  if (!(n >= 1)) throw new Error(`the sample size must be at least 1, not ${n}`);
  const s2 = variance * n;
  const nRho2Plus1 = n * rho2 + 1;
  return (
    Math.sqrt(s2) * Math.sqrt((2 * nRho2Plus1 * Math.log(Math.sqrt(nRho2Plus1) / alpha)) / (n * n * rho2))
  );
}

/** The always-valid interval estimate ± sequentialHalfWidth(variance, n). */
export function sequentialInterval(
  estimate: number,
  variance: number,
  n: number,
  options: SequentialOptions = {},
): Interval {
  const h = sequentialHalfWidth(variance, n, options);
  return { lower: estimate - h, upper: estimate + h };
}
