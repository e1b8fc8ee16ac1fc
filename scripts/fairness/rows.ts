/**
 * Per-list values laid out for the bootstrap: one row per list (proposal-major), each row the (column,
 * value) pairs of that list. A value of 0 adds nothing to a sum, so only non-zero values are stored.
 * A column undefined on some lists (a group's mean exposure where it is absent) marks those lists
 * instead: its weight is the number of lists less the marked ones, and most groups are present in most
 * lists, so the marks are few. Most groups of a 50-value attribute are absent from most top Ks, so the
 * rows hold about half of the groups × measures cells.
 */
interface Entries {
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
  /** Columns undefined on a row (their values are 0 there). */
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
  add(rows.undefinedAt, column, 0);
}

/** Closes the row being written. */
export function endRow(rows: SparseRows) {
  rows.length++;
  rows.values.start[rows.length] = rows.values.size;
  rows.undefinedAt.start[rows.length] = rows.undefinedAt.size;
}

/** Each column's rows where it is undefined. */
export function undefinedCounts(rows: SparseRows, columns: number): Int32Array {
  const out = new Int32Array(columns);
  for (let i = 0; i < rows.undefinedAt.size; i++) out[rows.undefinedAt.column[i]]++;
  return out;
}

/** Resamples summed per pass over the rows: each entry is read once for all of them. */
export const BLOCK = 4;

/**
 * For each of BLOCK resamples q (`counts[q]`, how often each row was drawn), each column j's
 * Σ count_i × value_i at `sums[j · BLOCK + q]`, added in row order so each sum is the same
 * floating-point number, bit for bit, as a loop over the proposals gives (a zero count adds +0, which
 * changes no sum), and Σ count_i over the rows where it is undefined at `missing[j · BLOCK + q]`.
 */
export function accumulate(
  rows: SparseRows,
  counts: readonly Uint32Array[],
  sums: Float64Array,
  missing: Float64Array,
) {
  sums.fill(0);
  missing.fill(0);
  const [k0, k1, k2, k3] = counts;
  const { start, column, value } = rows.values;
  const u = rows.undefinedAt;
  for (let i = 0; i < rows.length; i++) {
    const c0 = k0[i];
    const c1 = k1[i];
    const c2 = k2[i];
    const c3 = k3[i];
    if ((c0 | c1 | c2 | c3) === 0) continue;
    const end = start[i + 1];
    for (let x = start[i]; x < end; x++) {
      const j = column[x] * BLOCK;
      const v = value[x];
      sums[j] += c0 * v;
      sums[j + 1] += c1 * v;
      sums[j + 2] += c2 * v;
      sums[j + 3] += c3 * v;
    }
    for (let x = u.start[i]; x < u.start[i + 1]; x++) {
      const j = u.column[x] * BLOCK;
      missing[j] += c0;
      missing[j + 1] += c1;
      missing[j + 2] += c2;
      missing[j + 3] += c3;
    }
  }
}
