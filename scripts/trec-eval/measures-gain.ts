import { gainOf, IdealGains, setupGains } from "./gains";
import type { TrecMeasureDef } from "./measure-def";
import { NONPOOL, UNJUDGED, type ResRels } from "./res-rels";

const longCutoffs = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
const discount = (i: number) => Math.log2(i + 2);

/**
 * trec_eval's ndcg over res_rels, its loops and float order kept, for `assay trec_eval` (which prints what
 * trec_eval prints) and the trec_eval measures of `assay eval` that only it has (gains given as
 * `ndcg.1=3`, ndcg_rel, Rndcg). `assay eval`'s nDCG@K is scripts/eval/registry/ndcg.ts: the same formula
 * on a list of labels, checked against trec_eval's printed values (trec-small); this one must stay
 * because it works on trec_eval's own structures and is checked line by line against trec_eval's output.
 */
function ndcg(rr: ResRels, gains: ReturnType<typeof setupGains>) {
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.list[i], gains);
    if (g !== 0) dcg += g / discount(i);
    ideal.next();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.list[i], gains);
    if (g !== 0) dcg += g / discount(i);
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  return idcg > 0 ? dcg / idcg : 0;
}

function ndcgRel(rr: ResRels, gains: ReturnType<typeof setupGains>) {
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.list[i], gains);
    if (g !== 0) dcg += g / discount(i);
    ideal.next();
    if (ideal.gain > 0) {
      numRel++;
      idcg += ideal.gain / discount(i);
    }
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.list[i], gains);
    if (g !== 0) dcg += g / discount(i);
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    if (ideal.gain > 0) {
      numRel++;
      idcg += ideal.gain / discount(i);
    }
  }
  sum += ((numRel - numRelRet) * dcg) / idcg;
  return sum > 0 ? sum / numRel : 0;
}

function rndcg(rr: ResRels, gains: ReturnType<typeof setupGains>) {
  if (rr.numRel === 0) return 0;
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let changes = 0;
  let oldGain = ideal.gain;
  const boundary = () => {
    if (oldGain !== ideal.gain) {
      if (idcg > 0) {
        sum += dcg / idcg;
        changes++;
      }
      oldGain = ideal.gain;
    }
  };
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.list[i], gains);
    ideal.next();
    boundary();
    if (g !== 0) dcg += g / discount(i);
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  if (i < rr.numRet) {
    for (; i < rr.numRet; i++) {
      const g = gainOf(rr.list[i], gains);
      if (g !== 0) dcg += g / discount(i);
    }
    if (idcg > 0) {
      sum += dcg / idcg;
      changes++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    boundary();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  return sum / changes;
}

function normalizedGain(rr: ResRels, gains: ReturnType<typeof setupGains>) {
  const ideal = new IdealGains(gains);
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  const minCost = 1;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.list[i], gains);
    sumResults += g;
    ideal.next();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
    sumCost += ideal.gain >= minCost ? ideal.gain : minCost;
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.list[i], gains);
    sumResults += g;
    sumCost += minCost;
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  while (ideal.gain > 0) {
    ideal.next();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
  }
  return sumIdeal > 0 ? resultsG / sumIdeal : 0;
}

/** ndcg_cut: the labels themselves as gains, whatever -m ndcg was given (trec_eval's loop; see ndcg above). */
function ndcgCut(rr: ResRels, cutoffs: number[]) {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = sum;
      if (++c === cutoffs.length) break;
    }
    const gain = rr.list[i];
    if (gain > 0) sum += gain / discount(i);
  }
  for (; c < cutoffs.length; c++) out[c] = sum;
  c = 0;
  let level = rr.numRelLevels - 1;
  let count = 0;
  let idcg = 0;
  for (let i = 0; level > 0 || level < 0; i++) {
    count++;
    while (level > 0 && count > rr.relLevels[level]) {
      level--;
      count = 1;
    }
    if (level <= 0) break;
    if (i === cutoffs[c]) {
      if (idcg > 0) out[c] /= idcg;
      if (++c === cutoffs.length) break;
    }
    idcg += level / discount(i);
  }
  for (; c < cutoffs.length; c++) if (idcg > 0) out[c] /= idcg;
  return out;
}

/**
 * rbp (10.0): Σ gain · p^i · (1 − p), gains scaled into [0, 1] when any lies outside. 10.0 leaves
 * the running minimum and maximum uninitialised; they start here at 0 and 1, the reading under
 * which its outputs come out (binary labels unscaled, 0–3 labels divided by 3).
 */
function rbp(rr: ResRels, pairs: Parameters<typeof setupGains>[1]) {
  let p = 0.9;
  for (const pair of pairs) if (pair.name === "p") p = pair.gain;
  const gains = setupGains(
    rr,
    pairs.filter((pair) => pair.name !== "p"),
  );
  let min = 0;
  let max = 1;
  for (const g of gains) {
    if (g.gain < min) min = g.gain;
    if (g.gain > max) max = g.gain;
  }
  if (min < 0 || max > 1) for (const g of gains) g.gain = (g.gain - min) / (max - min);
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < rr.numRet; i++) {
    const g = gainOf(rr.list[i], gains);
    if (g !== 0) sum += g * weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

/** rbp_resid (10.0): how much rbp could rise if every unjudged document had full gain. */
function rbpResidual(rr: ResRels, pairs: Parameters<typeof setupGains>[1]) {
  let p = 0.9;
  for (const pair of pairs) if (pair.name === "p") p = pair.gain;
  let unjudged = 0;
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < rr.numRet; i++) {
    if (rr.list[i] === NONPOOL || rr.list[i] === UNJUDGED) {
      unjudged++;
      sum += weight;
    }
    weight *= p;
  }
  return unjudged ? weight + (1 - p) * sum : 0;
}

function binG(rr: ResRels, level: number) {
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (rr.list[i] >= level) {
      rel++;
      sum += 1 / Math.log2(3 + i - rel);
    }
  }
  return rel ? sum / rr.numRel : 0;
}

const pairMeasure = (
  name: string,
  f: (rr: ResRels, gains: ReturnType<typeof setupGains>) => number,
): TrecMeasureDef => ({
  name,
  shape: "pair-params",
  defaults: [],
  average: "mean",
  perQuery: true,
  calc: (rr, p) => [f(rr, setupGains(rr, p.pairs))],
});

/** The gain-based measures: binG, G, ndcg, ndcg_rel, Rndcg, ndcg_cut, and 10.0's rbp and rbp_resid. */
export const gainMeasures: Record<string, TrecMeasureDef> = {
  binG: {
    name: "binG",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => [binG(rr, s.relevanceLevel)],
  },
  G: pairMeasure("G", normalizedGain),
  ndcg: pairMeasure("ndcg", ndcg),
  ndcg_rel: pairMeasure("ndcg_rel", ndcgRel),
  Rndcg: pairMeasure("Rndcg", rndcg),
  ndcg_cut: {
    name: "ndcg_cut",
    shape: "cut-long",
    defaults: longCutoffs,
    average: "mean",
    perQuery: true,
    calc: (rr, p) => ndcgCut(rr, p.values),
  },
  rbp: {
    name: "rbp",
    shape: "pair-params",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, p) => [rbp(rr, p.pairs)],
  },
  rbp_resid: {
    name: "rbp_resid",
    shape: "pair-params",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, p) => [rbpResidual(rr, p.pairs)],
  },
};
