/**
 * Attention-weighted rank fairness of one list's top K, as the TREC Fair Ranking track 2022 evaluates
 * it (`wptrec/metrics/awrf.py`, `AWRFMetric.qr_awrf`): each value v of the attribute gets the share of
 * attention p_v = Σ_{r ≤ K, item r has v} d(r) / Σ_{r ≤ K} d(r), with d(r) = 1 / log2(max(r, 2)) (ranks 1
 * and 2 weigh alike), and AWRF = 1 − JSD(p, t), the Jensen–Shannon divergence in nats between p and the
 * target distribution t (here: the values' shares of the candidate pool; "unknown" is a value of its own).
 */
export function awrf(valueAt: readonly string[], k: number, target: ReadonlyMap<string, number>): number {
  const attention = new Map<string, number>();
  for (const value of target.keys()) attention.set(value, 0);
  let total = 0;
  for (let r = 1; r <= Math.min(k, valueAt.length); r++) {
    const d = 1 / Math.log2(Math.max(r, 2));
    total += d;
    attention.set(valueAt[r - 1], (attention.get(valueAt[r - 1]) ?? 0) + d);
  }
  return (
    1 -
    jensenShannon(
      [...attention.keys()].map((v) => (total > 0 ? attention.get(v)! / total : 0)),
      [...attention.keys()].map((v) => target.get(v) ?? 0),
    )
  );
}

/** Jensen–Shannon divergence (natural logarithm) of two distributions over the same values. */
export function jensenShannon(p: ArrayLike<number>, q: ArrayLike<number>): number {
  // Loops, not reduce: AWRF calls this for every list and K. Each sum still runs left to right from 0.
  let sp = 0;
  let sq = 0;
  for (let i = 0; i < p.length; i++) sp += p[i];
  for (let i = 0; i < q.length; i++) sq += q[i];
  let divergence = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i] / sp;
    const b = q[i] / sq;
    const m = (a + b) / 2;
    if (a > 0) divergence += 0.5 * a * Math.log(a / m);
    if (b > 0) divergence += 0.5 * b * Math.log(b / m);
  }
  return divergence;
}
