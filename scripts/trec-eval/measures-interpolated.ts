import type { TrecMeasureDef } from "./measure-def";
import type { ResRels, Settings } from "./res-rels";

const recallPoints = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/**
 * A recall fraction as a number of relevant documents: 9.0.8 adds 0.9 and truncates (so 0.1 of 474
 * relevant is 48, not 47); 10.0 rounds (lround).
 */
function relCutoff(fraction: number, numRel: number, settings: Settings) {
  return settings.v10 ? Math.round(fraction * numRel) : Math.trunc(fraction * numRel + 0.9);
}

/**
 * Interpolated precision at each recall cut-off (Int_Prec(X) = max Prec(Y), Y ≥ X), walking the list
 * from its end as trec_eval does, so ties and empty lists come out as there.
 */
function interpolated(rr: ResRels, fractions: number[], settings: Settings): number[] {
  const out = new Array<number>(fractions.length).fill(0);
  const cutoffs = fractions.map((f) => relCutoff(f, rr.numRel, settings));
  let current = cutoffs.length - 1;
  while (current >= 0 && cutoffs[current] > rr.numRelRet) current--;
  let intPrecis = rr.numRelRet / rr.numRet;
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if (rr.list[i - 1] >= settings.relevanceLevel) {
      while (current >= 0 && relSoFar === cutoffs[current]) out[current--] = intPrecis;
      relSoFar--;
    }
  }
  while (current >= 0) out[current--] = intPrecis;
  return out;
}

/** iprec_at_recall, 11pt_avg and Rprec_mult. */
export const interpolatedMeasures: Record<string, TrecMeasureDef> = {
  iprec_at_recall: {
    name: "iprec_at_recall",
    shape: "cut-float",
    defaults: recallPoints,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) => interpolated(rr, p.values, s),
  },
  "11pt_avg": {
    name: "11pt_avg",
    shape: "float-params",
    defaults: recallPoints,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) => {
      if (p.values.length === 0) throw new Error("11pt_avg needs recall points");
      // Summed from the last cut-off down, as trec_eval adds them.
      return [interpolated(rr, p.values, s).reduceRight((a, b) => a + b, 0) / p.values.length];
    },
  },
  Rprec_mult: {
    name: "Rprec_mult",
    shape: "cut-float",
    defaults: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2],
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) => {
      const out = new Array<number>(p.values.length).fill(0);
      // Both versions add 0.9 and truncate here: 10.0 rounded only the recall cut-offs.
      const cutoffs = p.values.map((f) => Math.trunc(f * rr.numRel + 0.9));
      let current = cutoffs.length - 1;
      while (current >= 0 && cutoffs[current] > rr.numRet) {
        out[current] = rr.numRelRet / cutoffs[current];
        current--;
      }
      let relSoFar = rr.numRelRet;
      for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
        const precis = relSoFar / i;
        while (current >= 0 && i === cutoffs[current]) out[current--] = precis;
        if (rr.list[i - 1] >= s.relevanceLevel) relSoFar--;
      }
      return out;
    },
  },
};
