import { bootstrapMeans, type BootstrapOptions, type Interval } from "../stats/bootstrap";
import { holm, pairedTest, type PairedTest } from "../stats/paired";

export interface SystemValues {
  name: string;
  /** One value per query, aligned across systems; NaN where a query has no value (Rank(g)). */
  values: Float64Array;
}

export interface PairComparison {
  a: string;
  b: string;
  n: number;
  meanA: number;
  meanB: number;
  difference: number;
  ci: Interval | null;
  statistic: number;
  pValue: number;
  pAdjusted: number;
  method: string;
}

export interface SystemComparison {
  queries: number;
  test: PairedTest;
  systems: { name: string; mean: number | null; ci: Interval | null; n: number }[];
  pairs: PairComparison[];
  holm: boolean;
}

/**
 * Paired comparison of systems on the same queries: every pair (b − a), its bootstrap CI of the mean
 * difference, a paired test, and Holm-adjusted p-values when there are more than two systems.
 * Queries where either system has no value (Rank(g) beyond the list) are left out of that pair.
 */
export function compareSystems(
  systems: readonly SystemValues[],
  test: PairedTest = "t",
  options: BootstrapOptions = {},
): SystemComparison {
  if (systems.length < 2) throw new Error("a comparison needs at least two systems");
  const n = systems[0].values.length;
  for (const s of systems)
    if (s.values.length !== n) throw new Error("every system needs a value for the same queries");
  const present = (v: Float64Array) => v.filter((x) => !Number.isNaN(x));
  const meanOf = (v: Float64Array) => (v.length === 0 ? null : v.reduce((s, x) => s + x, 0) / v.length);
  const systemCis = bootstrapMeans(
    systems.map((s) => present(s.values)).filter((v) => v.length > 0),
    options,
  );
  let ciIndex = 0;
  const summaries = systems.map((s) => {
    const v = present(s.values);
    return { name: s.name, mean: meanOf(v), ci: v.length > 0 ? systemCis[ciIndex++] : null, n: v.length };
  });
  const pairs: PairComparison[] = [];
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      const a: number[] = [];
      const b: number[] = [];
      systems[i].values.forEach((x, q) => {
        const y = systems[j].values[q];
        if (!Number.isNaN(x) && !Number.isNaN(y)) {
          a.push(x);
          b.push(y);
        }
      });
      if (a.length < 2)
        throw new Error(`${systems[i].name} and ${systems[j].name} share fewer than 2 queries with a value`);
      const diffs = Float64Array.from(b, (y, q) => y - a[q]);
      const result = pairedTest(test, a, b, options);
      pairs.push({
        a: systems[i].name,
        b: systems[j].name,
        n: a.length,
        meanA: meanOf(Float64Array.from(a))!,
        meanB: meanOf(Float64Array.from(b))!,
        difference: meanOf(diffs)!,
        ci: bootstrapMeans([diffs], options)[0],
        statistic: result.statistic,
        pValue: result.pValue,
        pAdjusted: result.pValue,
        method: result.method,
      });
    }
  }
  const useHolm = systems.length > 2;
  if (useHolm) holm(pairs.map((p) => p.pValue)).forEach((p, i) => (pairs[i].pAdjusted = p));
  return { queries: n, test, systems: summaries, pairs, holm: useHolm };
}
