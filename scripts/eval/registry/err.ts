import { finiteOrZero } from "../trec-backed";
import { cutLabels } from "./labels";
import type { Labels, MeasureEntry } from "./types";

/** gdeval's highest grade, which ERR's stopping probabilities are scaled by (ir_measures' ERR is gdeval's). */
export const ERR_MAX_GRADE = 4;

/**
 * ERR@K (Chapelle et al. 2009, as gdeval computes it): Σ_{i≤K} (1/i) R_i Π_{j<i} (1 − R_j) with
 * R = (2^g − 1) / 2^4, g the label clamped to 0..4 (unjudged: 0).
 */
export function expectedReciprocalRank(ranked: Labels, k?: number): number {
  const depth = Math.min(ranked.length, k ?? Infinity);
  let notStopped = 1;
  let err = 0;
  for (let i = 0; i < depth; i++) {
    const g = ranked[i] > 0 ? Math.min(ranked[i], ERR_MAX_GRADE) : 0;
    const r = (2 ** g - 1) / 2 ** ERR_MAX_GRADE;
    err += (notStopped * r) / (i + 1);
    notStopped *= 1 - r;
  }
  return err;
}

export const ERR: MeasureEntry = {
  kind: "ERR",
  definition: "Σ_{i≤K} (1/i) R_i Π_{j<i} (1 − R_j), R = (2^g − 1) / 2^4 with g the label clamped to 0..4",
  syntax: { params: [], cutoff: "optional", describe: "ERR@K" },
  aggregation: "mean",
  perQuery: (m, ranked) => finiteOrZero(expectedReciprocalRank(cutLabels(m, ranked), m.k)),
  reference: {
    test: "scripts/eval/trec-measures.test.ts",
    source: "gdeval's definition (as ir_measures uses it), worked by hand",
  },
};
