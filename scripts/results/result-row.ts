/**
 * A dashboard's result flattened to one row per (system or arm, group, measure), with its value and
 * 95% interval: the "every figure" tables, the snapshot CSV and the snapshot comparison all use it.
 * A module of its own so that every producer of rows (rows.ts, exposure-rows.ts, fairness-rows.ts)
 * shares one header without importing each other.
 */
export interface ResultRow {
  system: string;
  group: string;
  measure: string;
  value: number | null;
  lower: number | null;
  upper: number | null;
}
