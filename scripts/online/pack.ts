import type { StreamTotals, UnitTotals } from "./report";

/** The sums of a unit, in this order, in `PackedStreamTotals.sums`. */
const sumFields = [
  "sessions",
  "shown",
  "clicked",
  "adopted",
  "adoptedRankSum",
  "successfulSessions",
] as const;

/**
 * Per-unit totals in a form that crosses to a worker thread cheaply: the sums of every unit in one
 * Float64Array and arms as indices, where a structured clone would copy one object per unit. Only the
 * fields of StreamTotals travel: what a caller added (the SQL path's sessions) stays behind.
 */
export interface PackedStreamTotals {
  units: string[];
  arms: string[];
  armOfUnit: Uint16Array;
  sums: Float64Array;
  counts: Omit<StreamTotals, "units">;
}

/** Packs `totals` (see PackedStreamTotals); `unpackStreamTotals` gives them back. */
export function packStreamTotals({
  units,
  excludedUnits,
  allUnits,
  events,
  uniqueEvents,
  quality,
}: StreamTotals): PackedStreamTotals {
  const arms = [...new Set(units.map((u) => u.arm))];
  const armIndex = new Map(arms.map((a, i) => [a, i]));
  const sums = new Float64Array(units.length * sumFields.length);
  units.forEach((u, i) => sumFields.forEach((f, j) => (sums[i * sumFields.length + j] = u[f])));
  return {
    units: units.map((u) => u.unit),
    arms,
    armOfUnit: Uint16Array.from(units, (u) => armIndex.get(u.arm)!),
    sums,
    counts: { excludedUnits, allUnits, events, uniqueEvents, quality },
  };
}

/** The StreamTotals that `packStreamTotals` packed. */
export function unpackStreamTotals(packed: PackedStreamTotals): StreamTotals {
  const units = packed.units.map((unit, i) => {
    const u = { unit, arm: packed.arms[packed.armOfUnit[i]] } as UnitTotals;
    sumFields.forEach((f, j) => (u[f] = packed.sums[i * sumFields.length + j]));
    return u;
  });
  return { units, ...packed.counts };
}
