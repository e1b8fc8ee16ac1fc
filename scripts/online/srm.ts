import { chiSquareSurvival } from "../stats/distributions";

export const SRM_THRESHOLD = 0.001;

/**
 * Sample-ratio mismatch: χ² goodness of fit of the units observed per arm against the configured
 * weights (normalised to sum to 1); flagged when p < 0.001.
 */
export function sampleRatioMismatch(observed: Record<string, number>, weights: Record<string, number>) {
  const arms = Object.keys(weights);
  if (arms.length < 2) throw new Error("the SRM check needs at least two arms");
  for (const arm of Object.keys(observed))
    if (!(arm in weights)) throw new Error(`arm ${arm} has units but no configured weight`);
  const totalWeight = arms.reduce((s, a) => s + weights[a], 0);
  if (!(totalWeight > 0) || arms.some((a) => !(weights[a] > 0)))
    throw new Error("every arm weight must be positive");
  const total = arms.reduce((s, a) => s + (observed[a] ?? 0), 0);
  let chi2 = 0;
  for (const arm of arms) {
    const expected = (total * weights[arm]) / totalWeight;
    chi2 += expected === 0 ? 0 : ((observed[arm] ?? 0) - expected) ** 2 / expected;
  }
  const pValue = total === 0 ? 1 : chiSquareSurvival(chi2, arms.length - 1);
  return {
    units: Object.fromEntries(arms.map((a) => [a, observed[a] ?? 0])),
    chi2,
    df: arms.length - 1,
    pValue,
    mismatch: pValue < SRM_THRESHOLD,
  };
}
