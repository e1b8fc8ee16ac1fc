import type { TrecMeasureDef } from "./measure-def";
import { NONPOOL, UNJUDGED, type ResRels } from "./res-rels";

/** trec_eval's floor for a geometric mean (MIN_GEO_MEAN) and infAP's smoothing (INFAP_EPSILON). */
export const MIN_GEO_MEAN = 0.00001;
const INFAP_EPSILON = 0.00001;
const longCutoffs = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

function averagePrecision(rr: ResRels, level: number) {
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (rr.list[i] >= level) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return relSoFar ? sum / rr.numRel : 0;
}

function bpref(rr: ResRels, level: number) {
  let numNonrel = 0;
  for (let j = 0; j < level && j < rr.relLevels.length; j++) numNonrel += rr.relLevels[j];
  let nonrelSoFar = 0;
  let value = 0;
  for (let j = 0; j < rr.numRet; j++) {
    const rel = rr.list[j];
    if (rel === NONPOOL || rel === UNJUDGED) continue;
    if (rel >= 0 && rel < level) nonrelSoFar++;
    else value += nonrelSoFar > 0 ? 1 - Math.min(nonrelSoFar, rr.numRel) / Math.min(numNonrel, rr.numRel) : 1;
  }
  return rr.numRel ? value / rr.numRel : value;
}

/**
 * The cut-off loop shared by P, recall, map_cut, relative_P, success and unj: `at(i, state)` is the
 * value of a cut-off i reached within the list or beyond its end; `step` takes in the document at i.
 */
function atCutoffs<S>(
  rr: ResRels,
  cutoffs: number[],
  state: S,
  step: (s: S, rel: number, i: number) => void,
  at: (s: S, i: number) => number,
) {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = at(state, i);
      if (++c === cutoffs.length) break;
    }
    step(state, rr.list[i], i);
  }
  for (; c < cutoffs.length; c++) out[c] = at(state, cutoffs[c]);
  return out;
}

const counting = (level: number) => (s: { rel: number }, rel: number) => {
  if (rel >= level) s.rel++;
};

/** The measures of trec_eval's all_trec set that need no gains or interpolation, in its order. */
export const coreMeasures: Record<string, TrecMeasureDef> = {
  num_q: {
    name: "num_q",
    shape: "single",
    defaults: [],
    average: "num_q",
    perQuery: false,
    integer: true,
    calc: () => [1],
  },
  num_ret: {
    name: "num_ret",
    shape: "single",
    defaults: [],
    average: "sum",
    perQuery: true,
    integer: true,
    calc: (rr) => [rr.numRet],
  },
  num_rel: {
    name: "num_rel",
    shape: "single",
    defaults: [],
    average: "num_rel",
    perQuery: true,
    integer: true,
    calc: (rr) => [rr.numRel],
  },
  num_rel_ret: {
    name: "num_rel_ret",
    shape: "single",
    defaults: [],
    average: "sum",
    perQuery: true,
    integer: true,
    calc: (rr) => [rr.numRelRet],
  },
  map: {
    name: "map",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => [averagePrecision(rr, s.relevanceLevel)],
  },
  gm_map: {
    name: "gm_map",
    shape: "single",
    defaults: [],
    average: "gm",
    perQuery: false,
    calc: (rr, _p, s) => [Math.log(Math.max(averagePrecision(rr, s.relevanceLevel), MIN_GEO_MEAN))],
  },
  Rprec: {
    name: "Rprec",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => {
      const n = Math.min(rr.numRet, rr.numRel);
      if (n === 0) return [0];
      let rel = 0;
      for (let i = 0; i < n; i++) if (rr.list[i] >= s.relevanceLevel) rel++;
      return [rel / rr.numRel];
    },
  },
  bpref: {
    name: "bpref",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => [bpref(rr, s.relevanceLevel)],
  },
  recip_rank: {
    name: "recip_rank",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => {
      for (let i = 0; i < rr.numRet; i++) if (rr.list[i] >= s.relevanceLevel) return [1 / (i + 1)];
      return [0];
    },
  },
  P: {
    name: "P",
    shape: "cut-long",
    defaults: longCutoffs,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) =>
      atCutoffs(rr, p.values, { rel: 0 }, counting(s.relevanceLevel), (st, i) => st.rel / i),
  },
  recall: {
    name: "recall",
    shape: "cut-long",
    defaults: longCutoffs,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) =>
      rr.numRel === 0
        ? p.values.map(() => 0)
        : atCutoffs(rr, p.values, { rel: 0 }, counting(s.relevanceLevel), (st) => st.rel / rr.numRel),
  },
  infAP: {
    name: "infAP",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr, _p, s) => {
      let nonrel = 0;
      let rel = 0;
      let unjudged = 0;
      let value = 0;
      for (let j = 0; j < rr.numRet; j++) {
        const r = rr.list[j];
        if (r === NONPOOL) continue;
        if (r === UNJUDGED) {
          unjudged++;
          continue;
        }
        if (r >= 0 && r < s.relevanceLevel) nonrel++;
        else {
          rel++;
          if (j === 0) value += 1;
          else {
            value +=
              1 / (j + 1) +
              (j / (j + 1)) *
                ((rel - 1 + nonrel + unjudged) / j) *
                ((rel - 1 + INFAP_EPSILON) / (rel - 1 + nonrel + 2 * INFAP_EPSILON));
          }
        }
      }
      return [rr.numRel ? value / rr.numRel : value];
    },
  },
  gm_bpref: {
    name: "gm_bpref",
    shape: "single",
    defaults: [],
    average: "gm",
    perQuery: false,
    calc: (rr, _p, s) => [Math.log(Math.max(bpref(rr, s.relevanceLevel), MIN_GEO_MEAN))],
  },
  utility: {
    name: "utility",
    shape: "float-params",
    defaults: [1, -1, 0, 0],
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) => {
      if (p.values.length !== 4) throw new Error("utility takes four coefficients");
      const [a, b, c, d] = p.values;
      return [
        a * rr.numRelRet +
          b * (rr.numRet - rr.numRelRet) +
          c * (rr.numRel - rr.numRelRet) +
          d * (s.numDocsInColl + rr.numRelRet - rr.numRet - rr.numRel),
      ];
    },
  },
  map_cut: {
    name: "map_cut",
    shape: "cut-long",
    defaults: longCutoffs,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) =>
      rr.numRel === 0
        ? p.values.map(() => 0)
        : atCutoffs(
            rr,
            p.values,
            { rel: 0, sum: 0 },
            (st, rel, i) => {
              if (rel >= s.relevanceLevel) {
                st.rel++;
                st.sum += st.rel / (i + 1);
              }
            },
            (st) => st.sum / rr.numRel,
          ),
  },
  relative_P: {
    name: "relative_P",
    shape: "cut-long",
    defaults: longCutoffs,
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) =>
      rr.numRel === 0
        ? p.values.map(() => 0)
        : atCutoffs(
            rr,
            p.values,
            { rel: 0 },
            counting(s.relevanceLevel),
            (st, i) => st.rel / (i > rr.numRel ? rr.numRel : i),
          ),
  },
  success: {
    name: "success",
    shape: "cut-long",
    defaults: [1, 5, 10],
    average: "mean",
    perQuery: true,
    calc: (rr, p, s) =>
      atCutoffs(rr, p.values, { rel: 0 }, counting(s.relevanceLevel), (st) => (st.rel ? 1 : 0)),
  },
  set_P: {
    name: "set_P",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr) => [rr.numRet ? rr.numRelRet / rr.numRet : 0],
  },
  set_relative_P: {
    name: "set_relative_P",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr) => [rr.numRet && rr.numRel ? rr.numRelRet / Math.min(rr.numRet, rr.numRel) : 0],
  },
  set_recall: {
    name: "set_recall",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr) => [rr.numRel ? rr.numRelRet / rr.numRel : 0],
  },
  set_map: {
    name: "set_map",
    shape: "single",
    defaults: [],
    average: "mean",
    perQuery: true,
    calc: (rr) => [rr.numRet && rr.numRel ? (rr.numRelRet * rr.numRelRet) / (rr.numRet * rr.numRel) : 0],
  },
  set_F: {
    name: "set_F",
    shape: "float-params",
    defaults: [1],
    average: "mean",
    perQuery: true,
    calc: (rr, p) => {
      if (!rr.numRelRet) return [0];
      const P = rr.numRelRet / rr.numRet;
      const R = rr.numRelRet / rr.numRel;
      const x = p.values[0];
      return [((x + 1) * P * R) / (x * P + R)];
    },
  },
  num_nonrel_judged_ret: {
    name: "num_nonrel_judged_ret",
    shape: "single",
    defaults: [],
    average: "sum",
    perQuery: true,
    integer: true,
    calc: (rr) => [rr.numRet - rr.numNonpool - rr.numUnjudgedInPool - rr.numRelRet],
  },
  unj: {
    name: "unj",
    shape: "cut-long",
    defaults: [5, 10, 20],
    average: "mean",
    perQuery: true,
    calc: (rr, p) =>
      atCutoffs(
        rr,
        p.values,
        { unj: 0 },
        (st, rel) => {
          if (rel === NONPOOL || rel === UNJUDGED) st.unj++;
        },
        (st, i) => st.unj / i,
      ),
  },
};
