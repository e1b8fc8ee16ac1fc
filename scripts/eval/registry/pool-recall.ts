import { hitsAt, relevantCount } from "./labels";
import type { Labels, MeasureDisplay } from "./types";

/**
 * Pool recall: share of the relevant items found anywhere in the full list; null when R = 0. Set beside
 * Success@K it tells a recall failure (never retrieved) from a ranking failure (retrieved, ranked too
 * low). A column of the offline report, not a measure one can name to `assay eval`.
 * Checked by hand in hand-worked.test.ts and scripts/offline/report.test.ts.
 */
export function poolRecall(ranked: Labels, judged: Labels, rel = 1): number | null {
  const r = relevantCount(judged, rel);
  return r === 0 ? null : hitsAt(ranked, undefined, rel) / r;
}

/** The offline report's column name for pool recall. */
export const POOL_RECALL = "PoolRecall";

export const poolRecallDisplay = {
  pattern: /^PoolRecall$/i,
  show: (): MeasureDisplay => ({ label: "Pool recall", kind: "rate", direction: "higher" }),
};
