import { bootstrapStatistics, type Interval } from "../stats/bootstrap";
import { PROB_MIN } from "./model";
import type { ClickLog } from "./log";
import type { ClickIntervalOptions } from "./intervals";

/**
 * 95% intervals on PBM's examination curve (relative to rank 1), from refitting PBM on resamples of
 * the training sessions' clusters (conveners). The curve is a fitted parameter, not a sum over held-out
 * sessions, so unlike the other click-model intervals (intervals.ts) it needs a refit per resample.
 *
 * PBM's EM reads a session only through each shown (pair, rank) cell's click or no-click (pbm.ts): the
 * E-step of an unclicked cell depends on the pair and the rank alone. So a resample is fitted on the
 * cells' weighted counts (each cluster's counts times how often it was drawn), with the same start
 * (every value 0.5, counts (1, 2)), passes and clamp as `ClickModel.train`. A refit then costs passes ×
 * distinct cells rather than passes × sessions × ranks; with every cluster drawn once it is the page's
 * own PBM fit (a test holds the two to 1e-12).
 */

/** The training log's shown cells, with each cluster's clicks and no-clicks on them. */
export interface ExaminationCells {
  /** Per distinct (pair, rank) cell: its pair, renumbered 0..pairs−1, and its rank (0-based). */
  pair: Int32Array;
  rank: Int32Array;
  pairs: number;
  maxRank: number;
  /** Entries (cluster, cell, clicks, no-clicks), one per cluster and cell it has sessions on. */
  entryCluster: Int32Array;
  entryCell: Int32Array;
  entryClicks: Float64Array;
  entrySkips: Float64Array;
}

/** The cells of `log` with each cluster's counts; `clusterOf[s]` is session s's cluster. */
export function examinationCells(log: ClickLog, clusterOf: Int32Array): ExaminationCells {
  const R = log.maxRank;
  const pairIndex = new Map<number, number>();
  const cellIndex = new Map<number, number>();
  const entryIndex = new Map<string, number>();
  const pair: number[] = [];
  const rank: number[] = [];
  const entries = {
    cluster: [] as number[],
    cell: [] as number[],
    clicks: [] as number[],
    skips: [] as number[],
  };
  for (let s = 0; s < log.size; s++) {
    for (let r = 0; r < log.length[s]; r++) {
      const p = log.pair[s * R + r];
      let q = pairIndex.get(p);
      if (q === undefined) pairIndex.set(p, (q = pairIndex.size));
      const key = q * R + r;
      let cell = cellIndex.get(key);
      if (cell === undefined) {
        cellIndex.set(key, (cell = pair.length));
        pair.push(q);
        rank.push(r);
      }
      const entryKey = `${clusterOf[s]}:${cell}`;
      let e = entryIndex.get(entryKey);
      if (e === undefined) {
        entryIndex.set(entryKey, (e = entries.cell.length));
        entries.cluster.push(clusterOf[s]);
        entries.cell.push(cell);
        entries.clicks.push(0);
        entries.skips.push(0);
      }
      if (log.click[s * R + r]) entries.clicks[e]++;
      else entries.skips[e]++;
    }
  }
  return {
    pair: Int32Array.from(pair),
    rank: Int32Array.from(rank),
    pairs: pairIndex.size,
    maxRank: R,
    entryCluster: Int32Array.from(entries.cluster),
    entryCell: Int32Array.from(entries.cell),
    entryClicks: Float64Array.from(entries.clicks),
    entrySkips: Float64Array.from(entries.skips),
  };
}

/**
 * PBM's examination γ per rank, fitted by EM on the cells' weighted counts (`clicks[c]`, `skips[c]`
 * per cell): `ClickModel.train`'s update, value = min((1 + Σ expected) / (2 + Σ weight), 1 − 1e-6).
 */
export function fitExamination(
  cells: ExaminationCells,
  clicks: Float64Array,
  skips: Float64Array,
  passes: number,
) {
  return examinationFitter(cells)(clicks, skips, passes).slice();
}

/**
 * `fitExamination` with its buffers made once, for B refits of the same cells: the returned γ is
 * overwritten by the next call.
 */
function examinationFitter(cells: ExaminationCells) {
  const { pair, rank, pairs, maxRank } = cells;
  const attr = new Float64Array(pairs);
  const exam = new Float64Array(maxRank);
  const attrBase = new Float64Array(pairs);
  const examBase = new Float64Array(maxRank);
  const attrDen = new Float64Array(pairs);
  const examDen = new Float64Array(maxRank);
  const attrNum = new Float64Array(pairs);
  const examNum = new Float64Array(maxRank);
  const cellPair = new Int32Array(pair.length);
  const cellRank = new Int32Array(pair.length);
  const cellSkips = new Float64Array(pair.length);
  const clamp = 1 - PROB_MIN;
  return (clicks: Float64Array, skips: Float64Array, passes: number) => {
    attr.fill(0.5);
    exam.fill(0.5);
    // What each pass adds whatever the values: 1 + the clicks (a click is an attraction and an
    // examination); the denominators: the start's 2 + every weight.
    attrBase.fill(1);
    examBase.fill(1);
    attrDen.fill(2);
    examDen.fill(2);
    // Only cells with a no-click have an E-step that moves with the values.
    let moving = 0;
    for (let c = 0; c < pair.length; c++) {
      attrBase[pair[c]] += clicks[c];
      examBase[rank[c]] += clicks[c];
      attrDen[pair[c]] += clicks[c] + skips[c];
      examDen[rank[c]] += clicks[c] + skips[c];
      if (skips[c] > 0) {
        cellPair[moving] = pair[c];
        cellRank[moving] = rank[c];
        cellSkips[moving++] = skips[c];
      }
    }
    for (let it = 0; it < passes; it++) {
      attrNum.set(attrBase);
      examNum.set(examBase);
      for (let c = 0; c < moving; c++) {
        const a = attr[cellPair[c]];
        const g = exam[cellRank[c]];
        const t = cellSkips[c] / (1 - g * a);
        attrNum[cellPair[c]] += t * (1 - g) * a;
        examNum[cellRank[c]] += t * (1 - a) * g;
      }
      for (let p = 0; p < pairs; p++) attr[p] = Math.min(attrNum[p] / attrDen[p], clamp);
      for (let r = 0; r < maxRank; r++) exam[r] = Math.min(examNum[r] / examDen[r], clamp);
    }
    return exam;
  };
}

/**
 * The examination curve relative to rank 1 with a percentile interval per rank, from B refits of PBM
 * on resampled clusters (seeded `${seed}:clicks:examination`). γ₁ is never 0: its update starts
 * from (1, 2).
 */
export function examinationIntervals(
  cells: ExaminationCells,
  clusters: number,
  passes: number,
  options: ClickIntervalOptions,
  onResample?: (done: number, total: number) => void,
): (Interval | null)[] {
  const { entryCluster, entryCell, entryClicks, entrySkips, maxRank } = cells;
  const clicks = new Float64Array(cells.pair.length);
  const skips = new Float64Array(cells.pair.length);
  const fit = examinationFitter(cells);
  let done = 0;
  return bootstrapStatistics(
    clusters,
    (counts) => {
      clicks.fill(0);
      skips.fill(0);
      for (let e = 0; e < entryCell.length; e++) {
        const k = counts[entryCluster[e]];
        if (!k) continue;
        clicks[entryCell[e]] += k * entryClicks[e];
        skips[entryCell[e]] += k * entrySkips[e];
      }
      const exam = fit(clicks, skips, passes);
      onResample?.(++done, options.B);
      return Array.from(exam, (g) => g / exam[0]);
    },
    maxRank,
    { ...options, seed: `${options.seed}:clicks:examination` },
  );
}
