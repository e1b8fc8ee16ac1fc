/**
 * Per-list values laid out for the bootstrap: one row per list (proposal-major), each row the (column,
 * value) pairs of that list. A value of 0 adds nothing to a sum, so only non-zero values are stored.
 * A column undefined on some lists (a group's mean exposure where it is absent) marks those lists
 * instead: its weight is the number of lists less the marked ones, and most groups are present in most
 * lists, so the marks are few. Most groups of a 50-value attribute are absent from most top Ks, so the
 * rows hold about half of the groups × measures cells.
 */
export interface Entries {
  /** `start[i]` … `start[i + 1]`: row i's entries. */
  start: Int32Array;
  column: Int32Array;
  value: Float64Array;
  size: number;
}

export interface SparseRows {
  /** Rows so far. */
  length: number;
  /** Non-zero values. */
  values: Entries;
  /** Columns undefined on a row (their values are 0 there), each with the value 1: summed, they count the lists a column misses. */
  undefinedAt: Entries;
}

function entries(rows: number, capacity: number): Entries {
  return {
    start: new Int32Array(rows + 1),
    column: new Int32Array(capacity),
    value: new Float64Array(capacity),
    size: 0,
  };
}

export function sparseRows(rows: number): SparseRows {
  return { length: 0, values: entries(rows, Math.max(16, rows * 64)), undefinedAt: entries(rows, 16) };
}

function add(to: Entries, column: number, value: number) {
  if (to.size === to.column.length) {
    const columns = new Int32Array(to.size * 2);
    const values = new Float64Array(to.size * 2);
    columns.set(to.column);
    values.set(to.value);
    to.column = columns;
    to.value = values;
  }
  to.column[to.size] = column;
  to.value[to.size] = value;
  to.size++;
}

/** Adds a value to the row being written (row `length`); a zero is left out, as it adds nothing. */
export function addValue(rows: SparseRows, column: number, value: number) {
  if (value !== 0) add(rows.values, column, value);
}

/** Marks a column undefined on the row being written: the row does not count in its mean. */
export function addUndefined(rows: SparseRows, column: number) {
  add(rows.undefinedAt, column, 1);
}

/** Closes the row being written. */
export function endRow(rows: SparseRows) {
  rows.length++;
  rows.values.start[rows.length] = rows.values.size;
  rows.undefinedAt.start[rows.length] = rows.undefinedAt.size;
}

/** Resamples summed per pass over the entries: each entry is read once for all of them. */
export const BLOCK = 8;

/** The entries column by column, each column's in row order: `row` and `value` from `start[j]` to `start[j + 1]`. */
export interface ByColumn {
  columns: number;
  start: Int32Array;
  row: Int32Array;
  value: Float64Array;
}

/** The rows' entries regrouped by column (a counting sort: each column keeps its rows' order). */
export function byColumn(e: Entries, rows: number, columns: number): ByColumn {
  const start = new Int32Array(columns + 1);
  for (let x = 0; x < e.size; x++) start[e.column[x] + 1]++;
  for (let j = 0; j < columns; j++) start[j + 1] += start[j];
  const next = start.slice(0, columns);
  const row = new Int32Array(e.size);
  const value = new Float64Array(e.size);
  for (let i = 0; i < rows; i++) {
    for (let x = e.start[i]; x < e.start[i + 1]; x++) {
      const at = next[e.column[x]]++;
      row[at] = i;
      value[at] = e.value[x];
    }
  }
  return { columns, start, row, value };
}

/**
 * For BLOCK resamples q at once (`counts[i · BLOCK + q]`: how often resample q drew row i), each
 * column j's Σ count_i × value_i into `out[j · BLOCK + q]`. Each column's sum is added in row order, as
 * a loop over the proposals adds it, so it is the same floating-point number bit for bit (a zero count
 * adds +0, which changes no sum). The sums stay in registers: one store per column and resample.
 */
export function accumulate(entries: ByColumn, counts: Float64Array, out: Float64Array) {
  const { start, row, value } = entries;
  for (let j = 0; j < entries.columns; j++) {
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0,
      s5 = 0,
      s6 = 0,
      s7 = 0;
    const end = start[j + 1];
    for (let x = start[j]; x < end; x++) {
      const b = row[x] * BLOCK;
      const v = value[x];
      s0 += counts[b] * v;
      s1 += counts[b + 1] * v;
      s2 += counts[b + 2] * v;
      s3 += counts[b + 3] * v;
      s4 += counts[b + 4] * v;
      s5 += counts[b + 5] * v;
      s6 += counts[b + 6] * v;
      s7 += counts[b + 7] * v;
    }
    const o = j * BLOCK;
    out[o] = s0;
    out[o + 1] = s1;
    out[o + 2] = s2;
    out[o + 3] = s3;
    out[o + 4] = s4;
    out[o + 5] = s5;
    out[o + 6] = s6;
    out[o + 7] = s7;
  }
}
