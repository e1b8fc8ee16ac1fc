import { bootstrapStatistic, type BootstrapOptions, type Interval } from "../stats/bootstrap";

export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";
export const alphaLevels: AlphaLevel[] = ["nominal", "ordinal", "interval", "ratio"];

export interface Rating {
  item: string;
  rater: string;
  value: number;
}

/**
 * Krippendorff's α from the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability"): α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, over items with at least two
 * values (pairable values). δ² is 0/1 (nominal), the squared rank-sum distance (ordinal),
 * (c − k)² (interval) or ((c − k)/(c + k))² (ratio). Null when there is no disagreement to expect.
 */
export function krippendorffAlpha(ratings: readonly Rating[], level: AlphaLevel = "ordinal"): number | null {
  return alphaOfUnits(unitsOf(ratings), level);
}

/** Each item's values (one per rater; a rater's repeated rating of an item is an error). */
export function unitsOf(ratings: readonly Rating[]): number[][] {
  const byItem = new Map<string, Map<string, number>>();
  for (const r of ratings) {
    if (!Number.isFinite(r.value)) throw new Error(`the grade of ${r.rater} for ${r.item} is not a number`);
    let raters = byItem.get(r.item);
    if (!raters) byItem.set(r.item, (raters = new Map()));
    if (raters.has(r.rater)) throw new Error(`${r.rater} rated ${r.item} twice`);
    raters.set(r.rater, r.value);
  }
  return [...byItem.values()].map((m) => [...m.values()]);
}

export function alphaOfUnits(
  units: readonly number[][],
  level: AlphaLevel,
  weights?: ArrayLike<number>,
): number | null {
  return alphaOfParts(coincidenceParts(units), level, weights);
}

/**
 * Each unit's share of the coincidence matrix, laid out once: a bootstrap draw then only weighs the
 * units' cells (o = Σ_u w_u o_u) instead of walking every pair of values again. `values` are those of
 * all units, so a draw that leaves a value out gives it n_c = 0 (no weight), as the full computation.
 */
export interface CoincidenceParts {
  values: number[];
  /** Cells (c · V + k) of unit u at `start[u]` … `start[u + 1]`, with their amounts. */
  cells: Int32Array;
  amounts: Float64Array;
  start: Int32Array;
}

export function coincidenceParts(units: readonly number[][]): CoincidenceParts {
  const values = [...new Set(units.flat())].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const V = values.length;
  const cells: number[] = [];
  const amounts: number[] = [];
  const start = new Int32Array(units.length + 1);
  const local = new Float64Array(V * V);
  const touched: number[] = [];
  units.forEach((unit, u) => {
    const m = unit.length;
    for (let i = 0; m >= 2 && i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const cell = index.get(unit[i])! * V + index.get(unit[j])!;
        if (local[cell] === 0) touched.push(cell);
        local[cell] += 1 / (m - 1);
      }
    }
    for (const cell of touched) {
      cells.push(cell);
      amounts.push(local[cell]);
      local[cell] = 0;
    }
    touched.length = 0;
    start[u + 1] = cells.length;
  });
  return { values, cells: Int32Array.from(cells), amounts: Float64Array.from(amounts), start };
}

/** α from the units' parts, each unit weighed by `weights[u]` (a bootstrap draw's counts) or 1. */
export function alphaOfParts(
  parts: CoincidenceParts,
  level: AlphaLevel,
  weights?: ArrayLike<number>,
): number | null {
  const { values, cells, amounts, start } = parts;
  const V = values.length;
  const o = new Float64Array(V * V);
  for (let u = 0; u + 1 < start.length; u++) {
    const w = weights ? weights[u] : 1;
    if (w === 0) continue;
    for (let x = start[u]; x < start[u + 1]; x++) o[cells[x]] += w * amounts[x];
  }
  const nc = new Float64Array(V);
  for (let c = 0; c < V; c++) for (let k = 0; k < V; k++) nc[c] += o[c * V + k];
  const n = nc.reduce((s, x) => s + x, 0);
  if (n <= 1) return null;
  const delta = distance(values, nc, level);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta(c, k);
      observed += o[c * V + k] * d;
      expected += nc[c] * nc[k] * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

function distance(values: number[], nc: Float64Array, level: AlphaLevel): (c: number, k: number) => number {
  switch (level) {
    case "nominal":
      return (c, k) => (c === k ? 0 : 1);
    case "interval":
      return (c, k) => (values[c] - values[k]) ** 2;
    case "ratio":
      return (c, k) => {
        const sum = values[c] + values[k];
        return sum === 0 ? 0 : ((values[c] - values[k]) / sum) ** 2;
      };
    case "ordinal": {
      const cumulative = new Float64Array(nc.length + 1);
      for (let i = 0; i < nc.length; i++) cumulative[i + 1] = cumulative[i] + nc[i];
      return (c, k) => {
        if (c === k) return 0;
        const [lo, hi] = c < k ? [c, k] : [k, c];
        return (cumulative[hi + 1] - cumulative[lo] - (nc[lo] + nc[hi]) / 2) ** 2;
      };
    }
  }
}

export interface AgreementReport {
  level: AlphaLevel;
  alpha: number | null;
  ci: Interval | null;
  items: number;
  raters: number;
  pairableValues: number;
  leaveOneOut: { rater: string; alpha: number | null; ratings: number }[];
}

/** α with a bootstrap CI over items and each rater's leave-one-out α. */
export function agreementReport(
  ratings: readonly Rating[],
  level: AlphaLevel = "ordinal",
  options: BootstrapOptions = {},
): AgreementReport {
  const units = unitsOf(ratings);
  const parts = coincidenceParts(units);
  const alpha = alphaOfParts(parts, level);
  const ci = bootstrapStatistic(units.length, (counts) => alphaOfParts(parts, level, counts), options);
  const raters = [...new Set(ratings.map((r) => r.rater))].sort();
  const leaveOneOut = raters.map((rater) => ({
    rater,
    alpha: krippendorffAlpha(
      ratings.filter((r) => r.rater !== rater),
      level,
    ),
    ratings: ratings.filter((r) => r.rater === rater).length,
  }));
  const pairableValues = units.filter((u) => u.length >= 2).reduce((s, u) => s + u.length, 0);
  return { level, alpha, ci, items: units.length, raters: raters.length, pairableValues, leaveOneOut };
}
