import { canonicalJson } from "../../scripts/lib/canonical";
import { progressCells, readProgress, type ProgressCells } from "../../scripts/lib/progress";

/**
 * Results kept by what they were computed from: the kind, the settings with every default filled in,
 * and the input version (db/results/version.ts). A page viewed again on unchanged data is served from
 * here without reading or computing anything; a change of data changes the version, so the next view
 * computes anew. A result being computed is shared too, so two views at once start one computation;
 * a failure is forgotten, so the next view tries again. Kept per process, the most recent first out last.
 */
const KEPT = 32;
const kept = new Map<string, Promise<unknown>>();
/** The values of kept computations that have finished, for callers that must not wait a tick for them. */
const settled = new WeakMap<Promise<unknown>, { value: unknown; at: Date }>();
/** Each computation's progress counters, which its heavy task writes as it goes. */
const cells = new WeakMap<Promise<unknown>, ProgressCells>();

/** The key of a result: canonical JSON, so the order of settings' fields does not matter. */
export const resultKey = (parts: Record<string, unknown>) => canonicalJson(parts);

/**
 * The result kept under `key`, or `compute()`'s, kept unless `keep` says otherwise (a campaign's gold
 * figures still "computing" are not a result to keep). `compute` gets the counters its heavy task reports
 * progress to. `fresh` drops what is kept first: the analyst's Recompute.
 */
export function remember<T>(
  key: string,
  compute: (progress: ProgressCells) => Promise<T>,
  keep: (value: T) => boolean = () => true,
  fresh = false,
) {
  if (fresh) kept.delete(key);
  const found = kept.get(key) as Promise<T> | undefined;
  if (found) {
    // Most recently used last, so the oldest unused goes first.
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  const progress = progressCells();
  const started = compute(progress);
  cells.set(started, progress);
  kept.set(key, started);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  started.then(
    (value) => {
      settled.set(started, { value, at: new Date() });
      if (!keep(value) && kept.get(key) === started) kept.delete(key);
    },
    () => {
      if (kept.get(key) === started) kept.delete(key);
    },
  );
  return started;
}

/** The value of a computation `remember` returned, when it has finished (not waiting a tick). */
export function settledValue<T>(computation: Promise<T>) {
  return settled.get(computation) as { value: T; at: Date } | undefined;
}

/** When a computation `remember` returned finished (what a page shows as "computed at"), or null while it runs. */
export function computedAt(computation: Promise<unknown>): Date | null {
  return settled.get(computation)?.at ?? null;
}

/** How far a running computation has got, as its heavy task last reported; null before it reported. */
export function progressOf(computation: Promise<unknown>) {
  return readProgress(cells.get(computation));
}

/**
 * The last finished result of each family (a kind and its settings, without the data version), kept
 * apart from `kept` so a page can show it while the result on newer data is computed (stale while
 * revalidate). One per family, the oldest unused family first out: memory stays bounded whatever the
 * number of data versions seen.
 */
const latest = new Map<string, { key: string; value: unknown; at: Date }>();
/** Computations `keepLatest` already watches (a page asking again while one runs adds no second watch). */
const watched = new WeakSet<Promise<unknown>>();

/**
 * Records `computation` (kept under `key`) as its family's latest result once it finishes; a failure
 * leaves the family's last result as it was. A computation finishing after a newer one does not replace it.
 */
export function keepLatest(family: string, key: string, computation: Promise<unknown>) {
  if (watched.has(computation)) return;
  watched.add(computation);
  computation.then(
    (value) => {
      const at = settled.get(computation)?.at ?? new Date();
      const before = latest.get(family);
      if (before && before.at > at) return;
      latest.delete(family);
      latest.set(family, { key, value, at });
      if (latest.size > KEPT) latest.delete(latest.keys().next().value!);
    },
    () => undefined,
  );
}

/**
 * The family's last finished result, with the key it was kept under (so a caller can tell whether it is
 * of the same data) and when it finished; undefined when none has finished in this process.
 */
export function latestOf<T>(family: string) {
  return latest.get(family) as { key: string; value: T; at: Date } | undefined;
}
