/**
 * How far a computation in another thread has got: two counters (done, total) in shared memory, which
 * the task writes as it goes and a page reads while it waits. A callback cannot cross to a worker
 * thread; shared memory can, and reading it neither waits for nor disturbs the task.
 */
export type ProgressCells = Int32Array;

/** A task's progress as a page shows it ("3 of 12"); null before the task has said how much there is. */
export interface Progress {
  done: number;
  total: number;
}

/** Fresh counters, both 0, to hand to a task with its input. */
export function progressCells(): ProgressCells {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** The callback a task reports through (the `onProgress` of the offline report, gold figures, click models). */
export function progressWriter(cells: ProgressCells) {
  return (done: number, total: number) => {
    // Total first: a reader never sees a done count without its total.
    Atomics.store(cells, 1, Math.max(0, Math.round(total)));
    Atomics.store(cells, 0, Math.max(0, Math.round(done)));
  };
}

/** What the counters say now, or null when the task has reported nothing yet. */
export function readProgress(cells: ProgressCells | undefined): Progress | null {
  if (!cells) return null;
  const total = Atomics.load(cells, 1);
  return total > 0 ? { done: Math.min(Atomics.load(cells, 0), total), total } : null;
}
