/**
 * Kendall's τ-b between two orderings of the same items (ties corrected):
 * (concordant − discordant) / √((n0 − ties_x)(n0 − ties_y)); null when either side is all ties.
 */
export function kendallTau(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error("Kendall's tau needs two lists of equal length");
  let concordant = 0,
    discordant = 0,
    tiesX = 0,
    tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denominator = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
