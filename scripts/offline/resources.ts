import { createRng } from "../lib/random";
import { percentileInterval, type Interval } from "../stats/bootstrap";
import { quantileSorted } from "../stats/quantile";

export interface LatencyEstimate {
  value: number | null;
  ci: Interval | null;
}

/**
 * The source's second and third criteria beside accuracy: prediction time (each list's `latency_ms`
 * as the system's team measured it) and what building the system took (`build_seconds`, `memory_mb`).
 */
export interface SystemResources {
  /** Lists of the evaluated window's proposals (every variant), and how many of them carry a latency. */
  lists: number;
  timed: number;
  /** Latency in ms over the timed lists: p50, p95 and max with bootstrap CIs (resampling lists). */
  p50: LatencyEstimate;
  p95: LatencyEstimate;
  max: LatencyEstimate;
  mean: number | null;
  /**
   * The latency distribution for the page's chart: the type-7 quantile at every 5% from 0 to 100%
   * (21 points, whatever the number of lists); empty when no list is timed.
   */
  quantiles: { p: number; ms: number }[];
  buildSeconds: number | null;
  memoryMb: number | null;
}

/**
 * Quantiles interpolate between order statistics (type 7, as everywhere in Assay). A bootstrap draw
 * resamples the timed lists with replacement and is sorted once for all three figures. The max's
 * interval can never reach above the observed max (a bootstrap knows no larger value): read it as how
 * stable the worst case is, not as a bound on unseen lists.
 */
export function systemResources(
  system: {
    lists: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
    latencies?: ReadonlyMap<string, ReadonlyMap<string, number>>;
    buildSeconds?: number | null;
    memoryMb?: number | null;
  },
  proposals: readonly string[],
  o: { B: number; seed: string; level: number },
): SystemResources {
  let lists = 0;
  const values: number[] = [];
  for (const p of proposals) {
    const variants = system.lists.get(p);
    if (!variants) continue;
    for (const v of variants.keys()) {
      lists++;
      const ms = system.latencies?.get(p)?.get(v);
      if (ms !== undefined && ms !== null) values.push(ms);
    }
  }
  const none = { value: null, ci: null };
  const base = {
    lists,
    timed: values.length,
    buildSeconds: system.buildSeconds ?? null,
    memoryMb: system.memoryMb ?? null,
  };
  if (values.length === 0) return { ...base, p50: none, p95: none, max: none, mean: null, quantiles: [] };
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const draws = [new Float64Array(o.B), new Float64Array(o.B), new Float64Array(o.B)];
  const rng = createRng(o.seed);
  const sample = new Float64Array(n);
  for (let r = 0; r < o.B; r++) {
    for (let i = 0; i < n; i++) sample[i] = sorted[rng.int(n)];
    sample.sort();
    draws[0][r] = quantileSorted(sample, 0.5);
    draws[1][r] = quantileSorted(sample, 0.95);
    draws[2][r] = sample[n - 1];
  }
  const estimate = (value: number, j: number) => ({ value, ci: percentileInterval(draws[j], o.level) });
  return {
    ...base,
    p50: estimate(quantileSorted(sorted, 0.5), 0),
    p95: estimate(quantileSorted(sorted, 0.95), 1),
    max: estimate(sorted[n - 1], 2),
    mean: values.reduce((a, b) => a + b, 0) / n,
    quantiles: Array.from({ length: 21 }, (_, i) => ({ p: i / 20, ms: quantileSorted(sorted, i / 20) })),
  };
}
