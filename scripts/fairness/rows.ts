/**
 * Per-list values laid out for the bootstrap: one row per list (proposal-major), each row the (column,
 * value) pairs of that list. A value of 0 adds nothing to a sum, so a column defined on every list only
 * stores its non-zero values; a column that is undefined on some lists stores every defined value and
 * counts its weight. Most groups of a 50-value attribute are absent from most top Ks, so the rows hold
 * about half of the groups × measures cells, and a resample reads each row once for every column.
 */
export interface SparseRows {
  /** Rows so far. */
  length: number;
  /** `start[i]` … `start[i + 1]`: row i's entries. */
  start: Int32Array;
  column: Int32Array;
  value: Float64Array;
  /** Entries so far. */
  size: number;
}

export function sparseRows(rows: number): SparseRows {
  const capacity = Math.max(16, rows * 8);
  const start = new Int32Array(rows + 1);
  return { length: 0, start, column: new Int32Array(capacity), value: new Float64Array(capacity), size: 0 };
}

/** Adds an entry to the row being written (row `length`). */
export function addEntry(rows: SparseRows, column: number, value: number) {
  if (rows.size === rows.column.length) {
    const column = new Int32Array(rows.size * 2);
    const values = new Float64Array(rows.size * 2);
    column.set(rows.column);
    values.set(rows.value);
    rows.column = column;
    rows.value = values;
  }
  rows.column[rows.size] = column;
  rows.value[rows.size] = value;
  rows.size++;
}

/** Closes the row being written. */
export function endRow(rows: SparseRows) {
  rows.length++;
  rows.start[rows.length] = rows.size;
}

/**
 * Each column's Σ count_i × value_i over the rows (in row order, so each sum is the same floating-point
 * sum, bit for bit, as a loop over the proposals would give) and Σ count_i over the rows where it has
 * an entry; `counts` null counts every row once (the point estimate).
 */
export function accumulate(
  rows: SparseRows,
  counts: Uint32Array | null,
  sums: Float64Array,
  weights: Float64Array,
) {
  sums.fill(0);
  weights.fill(0);
  const { start, column, value } = rows;
  for (let i = 0; i < rows.length; i++) {
    const c = counts === null ? 1 : counts[i];
    if (c === 0) continue;
    const end = start[i + 1];
    for (let e = start[i]; e < end; e++) {
      const j = column[e];
      sums[j] += c * value[e];
      weights[j] += c;
    }
  }
}
