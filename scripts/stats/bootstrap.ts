import { createRng } from "../lib/random";
import { DEFAULT_B, DEFAULT_SEED } from "../lib/defaults";
import { quantileSorted } from "./quantile";

export interface BootstrapOptions {
  /** Resamples (default 2000). */
  B?: number;
  /** Seed of the PRNG (scripts/lib/random.ts): one seed and one data set give one interval. */
  seed?: string | number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export interface Interval {
  lower: number;
  upper: number;
}

export { DEFAULT_B, DEFAULT_SEED };

function settings(options: BootstrapOptions) {
  const B = options.B ?? DEFAULT_B;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(B) || B < 1)
    throw new Error(`the number of bootstrap resamples must be a whole number of at least 1, not ${B}`);
  if (!(level > 0 && level < 1))
    throw new Error(`the confidence level must be between 0 and 1, not ${level}`);
  return { B, level, seed: options.seed ?? DEFAULT_SEED };
}

/** Percentile interval of bootstrap statistics (type-7 quantiles at α/2 and 1 − α/2). */
export function percentileInterval(statistics: Float64Array, level: number): Interval | null {
  const finite = statistics.filter((v) => !Number.isNaN(v)).sort();
  if (finite.length === 0) return null;
  const alpha = 1 - level;
  return { lower: quantileSorted(finite, alpha / 2), upper: quantileSorted(finite, 1 - alpha / 2) };
}

/**
 * Percentile CIs of the means of several columns (per-query values of several measures), all from the
 * same resamples of rows (queries). The hot loop draws an index per row and gathers every column:
 * B × n draws and B × n × columns additions, with the PRNG (sfc32) inlined.
 */
export function bootstrapMeans(
  columns: readonly Float64Array[],
  options: BootstrapOptions = {},
): (Interval | null)[] {
  const { B, level, seed } = settings(options);
  const n = columns[0]?.length ?? 0;
  if (n === 0) return columns.map(() => null);
  for (const c of columns) if (c.length !== n) throw new Error("every column needs one value per query");
  const m = columns.length;
  const stats = columns.map(() => new Float64Array(B));
  const idx = new Int32Array(n);
  const sums = new Float64Array(m);
  let [a, b, c, d] = seedState(seed);
  for (let r = 0; r < B; r++) {
    for (let i = 0; i < n; i++) {
      // sfc32 step (see scripts/lib/random.ts)
      let t = (a + b) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      d = (d + 1) | 0;
      t = (t + d) | 0;
      c = (c + t) | 0;
      idx[i] = Math.floor(((t >>> 0) / 4294967296) * n);
    }
    for (let j = 0; j < m; j++) {
      const col = columns[j];
      let s0 = 0,
        s1 = 0;
      let i = 0;
      for (; i + 1 < n; i += 2) {
        s0 += col[idx[i]];
        s1 += col[idx[i + 1]];
      }
      if (i < n) s0 += col[idx[i]];
      sums[j] = s0 + s1;
    }
    for (let j = 0; j < m; j++) stats[j][r] = sums[j] / n;
  }
  return stats.map((s) => percentileInterval(s, level));
}

/** The sfc32 state createRng starts from, after its warm-up. */
function seedState(seed: string | number): [number, number, number, number] {
  const rng = createRng(seed) as ReturnType<typeof createRng> & {
    state?: () => [number, number, number, number];
  };
  // Draw four outputs from the seeded generator to start an independent inlined stream.
  return [rng.nextUint32() | 0, rng.nextUint32() | 0, rng.nextUint32() | 0, rng.nextUint32() | 0];
}

/**
 * Percentile CI of any statistic of n units, recomputed on each resample from how often each unit
 * was drawn (`counts[u]`). Slower than bootstrapMeans, for ratios, quantiles and the like.
 */
export function bootstrapStatistic(
  n: number,
  statistic: (counts: Uint32Array) => number | null,
  options: BootstrapOptions = {},
): Interval | null {
  return bootstrapStatistics(n, (counts) => [statistic(counts)], 1, options)[0];
}

/** Several statistics of the same resamples. */
export function bootstrapStatistics(
  n: number,
  statistics: (counts: Uint32Array) => (number | null)[],
  k: number,
  options: BootstrapOptions = {},
): (Interval | null)[] {
  return bootstrapStatisticsInBlocks(n, (counts) => [statistics(counts[0])], k, 1, options);
}

/**
 * bootstrapStatistics for statistics cheaper to compute several resamples at a time (one pass over
 * large data for `block` resamples): `statistics` gets the counts of up to `block` consecutive
 * resamples and returns each one's values. The same draws in the same order as bootstrapStatistics,
 * so the same intervals.
 */
export function bootstrapStatisticsInBlocks(
  n: number,
  statistics: (counts: readonly Uint32Array[]) => (number | null)[][],
  k: number,
  block: number,
  options: BootstrapOptions = {},
): (Interval | null)[] {
  const { B, level, seed } = settings(options);
  if (n === 0) return Array.from({ length: k }, () => null);
  const rng = createRng(seed);
  const counts = Array.from({ length: block }, () => new Uint32Array(n));
  const drawn = new Int32Array(n);
  const out = Array.from({ length: k }, () => new Float64Array(B));
  for (let r = 0; r < B; r += block) {
    const resamples = counts.slice(0, Math.min(block, B - r));
    for (const c of resamples) {
      c.fill(0);
      rng.fillInts(drawn, n);
      for (let i = 0; i < n; i++) c[drawn[i]]++;
    }
    statistics(resamples).forEach((values, q) => {
      for (let j = 0; j < k; j++) out[j][r + q] = values[j] ?? NaN;
    });
  }
  return out.map((s) => percentileInterval(s, level));
}

/** Stratified resampling: units of each group are resampled within their group (A/B arms). */
export function bootstrapGroups(
  sizes: readonly number[],
  statistics: (counts: readonly Uint32Array[]) => (number | null)[],
  k: number,
  options: BootstrapOptions = {},
): (Interval | null)[] {
  const { B, level, seed } = settings(options);
  const rng = createRng(seed);
  const counts = sizes.map((n) => new Uint32Array(n));
  const out = Array.from({ length: k }, () => new Float64Array(B));
  // The draws of a group at once (fillInts: the same numbers as as many rng.int calls, faster).
  const draws = new Int32Array(Math.max(0, ...sizes));
  for (let r = 0; r < B; r++) {
    for (let g = 0; g < counts.length; g++) {
      const group = counts[g];
      const n = sizes[g];
      group.fill(0);
      rng.fillInts(draws, n, 0, n);
      for (let i = 0; i < n; i++) group[draws[i]]++;
    }
    const values = statistics(counts);
    for (let j = 0; j < k; j++) out[j][r] = values[j] ?? NaN;
  }
  return out.map((s) => percentileInterval(s, level));
}
