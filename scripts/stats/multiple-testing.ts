/**
 * Adjusted p-values for a family of m comparisons (the slices and metrics of one page), as
 * statsmodels' `multipletests` gives them and GrowthBook offers them:
 * - Holm (step-down, controls the family-wise error rate): sort ascending, p̃₍ᵢ₎ = max_{j≤i} min(1, (m − j + 1)·p₍ⱼ₎);
 * - Benjamini–Hochberg (step-up, controls the false discovery rate): p̃₍ᵢ₎ = min_{j≥i} min(1, m·p₍ⱼ₎/j).
 * Results come back in the input order; a null p (a comparison that could not be made) stays null and
 * does not count in m.
 */
export type Correction = "holm" | "bh";

export function adjustPValues(pValues: readonly (number | null)[], method: Correction): (number | null)[] {
  for (const p of pValues)
    if (p !== null && !(p >= 0 && p <= 1)) throw new Error(`a p-value must lie in [0, 1], not ${p}`);
  const order = pValues
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: number; i: number } => x.p !== null)
    .sort((a, b) => a.p - b.p || a.i - b.i);
  const m = order.length;
  const adjusted: (number | null)[] = pValues.map(() => null);
  if (method === "holm") {
    let running = 0;
    order.forEach(({ p, i }, k) => {
      running = Math.max(running, Math.min(1, (m - k) * p));
      adjusted[i] = running;
    });
  } else {
    let running = 1;
    for (let k = m - 1; k >= 0; k--) {
      running = Math.min(running, Math.min(1, (m * order[k].p) / (k + 1)));
      adjusted[order[k].i] = running;
    }
  }
  return adjusted;
}
