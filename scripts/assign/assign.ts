/**
 * Arm assignment compatible with GrowthBook's SDKs (packages/sdk-js/src/util.ts: `hash`,
 * `getBucketRanges`, `chooseVariation`, `inNamespace`), checked against every case of the SDK's shared
 * test file cases.json for those four functions (test/fixtures/growthbook/). Hashes are FNV-1a 32-bit
 * over UTF-16 code units. Arm i owns [Σ_{j<i} w_j, Σ_{j<i} w_j + coverage · w_i); a unit in no range
 * (outside coverage or outside the namespace) gets −1.
 */

export type HashVersion = 1 | 2;

/** A GrowthBook namespace: the id and the half-open share [start, end) of its hash range this experiment uses. */
export type Namespace = [id: string, start: number, end: number];

/** FNV-1a 32-bit over the string's UTF-16 code units, as GrowthBook's `hashFnv32a`. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h += (h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24);
  }
  return h >>> 0;
}

/**
 * GrowthBook's `hash(seed, value, version)`: version 2 (the unbiased one) is
 * (fnv(String(fnv(seed + value))) mod 10000) / 10000; version 1 (the original, kept by GrowthBook for
 * old experiments) is (fnv(value + seed) mod 1000) / 1000; any other version gives null.
 */
export function hashVersioned(seed: string, value: string, version: number): number | null {
  if (version === 2) return (fnv1a32(String(fnv1a32(seed + value))) % 10000) / 10000;
  if (version === 1) return (fnv1a32(value + seed) % 1000) / 1000;
  return null;
}

/** The unit's GrowthBook hash in [0, 1) under the experiment's seed, version 2 unless told. */
export function growthbookHash(seed: string, unit: string, version: HashVersion = 2): number {
  return hashVersioned(seed, unit, version)!;
}

/** GrowthBook's `getEqualWeights(n)`: n weights of 1/n (none when n ≤ 0). */
export function getEqualWeights(n: number): number[] {
  return n <= 0 ? [] : new Array<number>(n).fill(1 / n);
}

/**
 * GrowthBook's `getBucketRanges(numVariations, coverage, weights)`, rule for rule: coverage is clamped to
 * [0, 1]; missing weights, weights of another length than numVariations, or weights whose total is below
 * 0.99 or above 1.01 are replaced by equal weights (GrowthBook logs an error and goes on); weights within
 * that band are used as they are, not rescaled ([0.33, 0.33, 0.33] leaves [0.99, 1) to no arm).
 */
export function getBucketRanges(
  numVariations: number,
  coverage = 1,
  weights?: readonly number[],
): [number, number][] {
  const c = coverage < 0 ? 0 : coverage > 1 ? 1 : coverage;
  const equal = getEqualWeights(numVariations);
  let w = weights ?? equal;
  if (w.length !== numVariations) w = equal;
  const total = w.reduce((sum, x) => sum + x, 0);
  if (total < 0.99 || total > 1.01) w = equal;
  let cumulative = 0;
  return w.map((x) => {
    const start = cumulative;
    cumulative += x;
    return [start, start + c * x];
  });
}

/**
 * Refuses weights and coverage that GrowthBook would silently replace or clamp, since Assay's users
 * state them on purpose: weights must be numbers ≥ 0 with a total GrowthBook uses as given
 * (0.99 to 1.01), coverage between 0 and 1.
 */
export function validateWeights(weights: readonly number[], coverage: number) {
  if (weights.length < 1) throw new Error("give at least one arm weight");
  if (weights.some((w) => !Number.isFinite(w) || w < 0))
    throw new Error("arm weights must be numbers of 0 or more");
  const total = weights.reduce((s, w) => s + w, 0);
  if (total < 0.99 || total > 1.01) {
    throw new Error(
      `arm weights must sum to 1, within GrowthBook's 0.99 to 1.01 (they sum to ${Number(total.toFixed(6))})`,
    );
  }
  if (!(coverage >= 0 && coverage <= 1)) throw new Error(`coverage must be between 0 and 1, not ${coverage}`);
}

/** The arms' hash ranges for validated weights (see validateWeights), as GrowthBook computes them. */
export function bucketRanges(weights: readonly number[], coverage = 1): [number, number][] {
  validateWeights(weights, coverage);
  return getBucketRanges(weights.length, coverage, weights);
}

/** GrowthBook's `chooseVariation`: the first arm whose half-open range holds the hash, else −1. */
export function chooseArm(hash: number, ranges: readonly (readonly [number, number])[]): number {
  for (let i = 0; i < ranges.length; i++) if (hash >= ranges[i][0] && hash < ranges[i][1]) return i;
  return -1;
}

/**
 * GrowthBook's `inNamespace(unit, [id, start, end])`: the unit belongs to the namespace slice when
 * the version-1 hash of the unit with seed "__" + id falls in [start, end). Experiments sharing a
 * namespace with disjoint slices never share a unit.
 */
export function inNamespace(unit: string, namespace: Namespace): boolean {
  const n = growthbookHash(`__${namespace[0]}`, unit, 1);
  return n >= namespace[1] && n < namespace[2];
}

export interface AssignOptions {
  /** GrowthBook's `hashVersion`; 2 unless an experiment was started with version 1. */
  hashVersion?: HashVersion;
  /** When given, units outside the namespace slice get no arm (−1), as GrowthBook skips them. */
  namespace?: Namespace;
}

/** The arm of one unit (−1: none), with its hash, as GrowthBook's `run` assigns it. */
export function assignUnit(
  seed: string,
  unit: string,
  weights: readonly number[],
  coverage = 1,
  options: AssignOptions = {},
) {
  const hash = growthbookHash(seed, unit, options.hashVersion ?? 2);
  if (options.namespace && !inNamespace(unit, options.namespace)) return { unit, hash, arm: -1 };
  return { unit, hash, arm: chooseArm(hash, bucketRanges(weights, coverage)) };
}
