/**
 * Arm assignment compatible with GrowthBook's SDKs (hash version 2): FNV-1a 32-bit over UTF-16 code
 * units, h = (fnv(String(fnv(seed + unit))) mod 10000) / 10000. Arm i owns
 * [Σ_{j<i} w_j, Σ_{j<i} w_j + coverage · w_i); a unit in no range (outside coverage) gets −1.
 */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h += (h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24);
  }
  return h >>> 0;
}

export function growthbookHash(seed: string, unit: string): number {
  return (fnv1a32(String(fnv1a32(seed + unit))) % 10000) / 10000;
}

export function validateWeights(weights: readonly number[], coverage: number) {
  if (weights.length < 1) throw new Error("give at least one arm weight");
  if (weights.some((w) => !Number.isFinite(w) || w < 0)) throw new Error("arm weights must be numbers of 0 or more");
  const total = weights.reduce((s, w) => s + w, 0);
  if (Math.abs(total - 1) > 0.01) throw new Error(`arm weights must sum to 1 (they sum to ${Number(total.toFixed(6))})`);
  if (!(coverage >= 0 && coverage <= 1)) throw new Error(`coverage must be between 0 and 1, not ${coverage}`);
}

export function bucketRanges(weights: readonly number[], coverage = 1): [number, number][] {
  validateWeights(weights, coverage);
  let cumulative = 0;
  return weights.map((w) => {
    const start = cumulative;
    cumulative += w;
    return [start, start + coverage * w];
  });
}

export function chooseArm(hash: number, ranges: readonly [number, number][]): number {
  for (let i = 0; i < ranges.length; i++) if (hash >= ranges[i][0] && hash < ranges[i][1]) return i;
  return -1;
}

export function assignUnit(seed: string, unit: string, weights: readonly number[], coverage = 1) {
  const hash = growthbookHash(seed, unit);
  return { unit, hash, arm: chooseArm(hash, bucketRanges(weights, coverage)) };
}
