import type { GainPair } from "./measure-def";
import type { ResRels } from "./res-rels";

/** One relevance level's gain and how many judgements carry it (trec_eval's REL_GAIN). */
export interface RelGain {
  level: number;
  gain: number;
  count: number;
}

/**
 * glibc's qsort for small arrays: a top-down merge sort, stable, taking from the left run while
 * cmp ≤ 0. trec_eval compares gains by the integer part of their difference, not a strict order, so
 * only the same algorithm puts equal-looking gains (4 and 4.5) where trec_eval puts them.
 */
export function mergeSort<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return items.slice();
  const half = items.length >> 1;
  const left = mergeSort(items.slice(0, half), cmp);
  const right = mergeSort(items.slice(half), cmp);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) out.push(cmp(left[i], right[j]) <= 0 ? left[i++] : right[j++]);
  return out.concat(left.slice(i), right.slice(j));
}

/**
 * The gain of each level (setup_gains): given `level=gain` pairs first, then each judged level not
 * given, with its own number as gain; sorted by increasing gain.
 */
export function setupGains(rr: ResRels, pairs: GainPair[]): RelGain[] {
  // Pairs whose name is no level (rbp's p=) are skipped, as 10.0 does.
  const gains: RelGain[] = pairs
    .filter((p) => Number.isInteger(p.level))
    .map((p) => ({ level: p.level, gain: p.gain, count: 0 }));
  for (let level = 0; level < rr.numRelLevels; level++) {
    const known = gains.find((g) => g.level === level);
    if (known) known.count = rr.relLevels[level];
    else gains.push({ level, gain: level, count: rr.relLevels[level] });
  }
  return mergeSort(gains, (a, b) => Math.trunc(a.gain - b.gain));
}

/** The gain of a label; 0 for labels without one (unjudged, not pooled). */
export function gainOf(level: number, gains: RelGain[]): number {
  for (const g of gains) if (g.level === level) return g.gain;
  return 0;
}

/**
 * Walks the ideal ranking: the gains from the highest level down, each as many times as it has
 * judgements (the cur_level / num_at_level loop shared by ndcg, ndcg_rel, Rndcg and G).
 */
export class IdealGains {
  private level: number;
  private atLevel = 0;
  gain: number;

  constructor(private readonly gains: RelGain[]) {
    this.level = gains.length - 1;
    this.gain = this.level >= 0 ? gains[this.level].gain : 0;
  }

  /** Moves to the next rank; `gain` is then the ideal gain there. */
  next(): void {
    this.atLevel++;
    while (this.level >= 0 && this.atLevel > this.gains[this.level].count) {
      this.atLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? this.gains[this.level].gain : 0;
    }
  }
}
