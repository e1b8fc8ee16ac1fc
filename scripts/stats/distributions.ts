import jstatModule from "jstat";

// jStat ships as CommonJS with the API on `jStat`.
const { jStat } = jstatModule as unknown as { jStat: JStat };

interface JStat {
  ibeta(x: number, a: number, b: number): number;
  lowRegGamma(a: number, x: number): number;
  normal: { cdf(x: number, mean: number, sd: number): number };
}

/** Standard normal CDF Φ(x). */
export function normalCdf(x: number): number {
  return jStat.normal.cdf(x, 0, 1);
}

/** Two-sided p-value of a standard normal statistic: 2 Φ(−|z|), computed on the small tail. */
export function normalTwoSidedP(z: number): number {
  return Math.min(1, 2 * normalCdf(-Math.abs(z)));
}

/**
 * Two-sided p-value of Student's t with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2), the
 * regularized incomplete beta, which avoids the cancellation of 1 − CDF for small p.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return Math.min(1, jStat.ibeta(df / (df + t * t), df / 2, 0.5));
}

/** Upper tail P(X ≥ x) of χ² with df degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  if (x <= 0) return 1;
  return Math.max(0, 1 - jStat.lowRegGamma(df / 2, x / 2));
}
