import { gainMeasures } from "../trec-eval/measures-gain";
import { instantiate, trecMeasureDef, type TrecMeasure } from "../trec-eval/registry";
import { resRelsFromLabels, type ResRels, type Settings } from "../trec-eval/res-rels";
import type { Measure } from "./measures";
import type { Labels } from "./ranking";

/**
 * The measures computed as trec_eval 10.0 computes them (doubles, rounded recall cut-offs), from the
 * ranked labels (NaN: not in the qrels; negative: pooled but unjudged) and every judged label of a
 * query: trec_eval's own (gm_map, Rprec_mult, G, …) and the ir_measures ones that are the same
 * numbers (SetP, IPrec, Bpref, NumRel, …), plus ERR, graded or binary RBP and nDCG with gains.
 */

/** ir_measures kinds that are a trec_eval family, and that family's parameter text. */
const familyOf: Partial<Record<Measure["kind"], (m: Measure) => [string, string | null]>> = {
  SetP: () => ["set_P", null],
  SetRelP: () => ["set_relative_P", null],
  SetR: () => ["set_recall", null],
  SetAP: () => ["set_map", null],
  SetF: (m) => ["set_F", String(m.beta ?? 1)],
  IPrec: (m) => ["iprec_at_recall", String(m.k)],
  Rprec: () => ["Rprec", null],
  Bpref: () => ["bpref", null],
  infAP: () => ["infAP", null],
  Trec: (m) => [m.trec!.family, m.trec!.text],
};

// One query's res_rels and measure instances, kept while the same query's measures are computed
// (EvaluationBuilder asks for every measure of a query in a row, with the same arrays).
let cachedRanked: Labels | null = null;
let cachedJudged: Labels | null = null;
const resRelsCache = new Map<string, ResRels>();
// Per measure object, so that a query's hundred measures build no strings: its instance and cache key.
const instances = new WeakMap<Measure, TrecMeasure>();
const keys = new WeakMap<Measure, string>();

function resRelsOf(m: Measure, ranked: Labels, judged: Labels, level: number, depth = m.depth): ResRels {
  if (ranked !== cachedRanked || judged !== cachedJudged) {
    cachedRanked = ranked;
    cachedJudged = judged;
    resRelsCache.clear();
  }
  let key = depth === m.depth ? keys.get(m) : undefined;
  if (key === undefined) {
    key = `${level}|${m.judgedOnly ? 1 : 0}|${depth ?? ""}`;
    if (depth === m.depth) keys.set(m, key);
  }
  let rr = resRelsCache.get(key);
  if (!rr)
    resRelsCache.set(
      key,
      (rr = resRelsFromLabels(ranked, judged, level, { judgedOnly: m.judgedOnly, maxRetrieved: depth })),
    );
  return rr;
}

function instanceOf(m: Measure): TrecMeasure {
  let instance = instances.get(m);
  if (!instance) {
    const [family, text] = familyOf[m.kind]!(m);
    instances.set(m, (instance = instantiate(trecMeasureDef(family)!, text)));
  }
  return instance;
}

const settingsByLevel = new Map<number, Settings>();
function settingsOf(level: number): Settings {
  let settings = settingsByLevel.get(level);
  if (!settings)
    settingsByLevel.set(level, (settings = { relevanceLevel: level, numDocsInColl: 0, v10: true }));
  return settings;
}

/** The per-query value of a measure this module computes; an empty or all-unjudged list gives 0, not 0/0. */
export function trecBackedValue(m: Measure, ranked: Labels, judged: Labels): number {
  const level = Number.isNaN(m.rel) ? 1 : m.rel;
  let value: number;
  switch (m.kind) {
    case "NumQ":
      return 1;
    case "NumRel":
      return resRelsOf(m, ranked, judged, level).numRel;
    case "NumRet": {
      const rr = resRelsOf(m, ranked, judged, level);
      return Number.isNaN(m.rel) ? rr.numRet : rr.numRelRet;
    }
    case "NumRelRet":
      return resRelsOf(m, ranked, judged, level).numRelRet;
    case "RBP":
      value = Number.isNaN(m.rel) ? gradedRbp(m, ranked, judged) : binaryRbp(m, ranked, judged);
      break;
    case "ERR":
      value = expectedReciprocalRank(cutLabels(m, ranked), m.k);
      break;
    case "nDCG":
      value = ndcgWithGains(cutLabels(m, ranked), judged, m.k, new Map(m.gains ?? []));
      break;
    default: {
      const instance = instanceOf(m);
      value = instance.def.calc(resRelsOf(m, ranked, judged, level), instance.params, settingsOf(level))[0];
      // gm_map and gm_bpref give log(max(v, 0.00001)); the column holds max(v, 0.00001) and averages geometrically.
      if (instance.def.average === "gm") value = Math.exp(value);
    }
  }
  return Number.isFinite(value) ? value : 0;
}

/** Whether a measure is computed here rather than by ranking.ts. */
export function isTrecBacked(m: Measure): boolean {
  return (
    m.kind in familyOf ||
    m.kind === "NumQ" ||
    m.kind === "NumRel" ||
    m.kind === "NumRet" ||
    m.kind === "NumRelRet" ||
    m.kind === "RBP" ||
    m.kind === "ERR" ||
    (m.kind === "nDCG" && m.gains !== undefined)
  );
}

/** A list as judged_only and depth leave it: the top `depth` items, then only those with a label ≥ 0. */
export function cutLabels(m: Pick<Measure, "judgedOnly" | "depth">, ranked: Labels): Labels {
  const depth = Math.min(ranked.length, m.depth ?? Infinity);
  if (!m.judgedOnly) return depth === ranked.length ? ranked : Array.prototype.slice.call(ranked, 0, depth);
  const out: number[] = [];
  for (let i = 0; i < depth; i++) if (ranked[i] >= 0) out.push(ranked[i]);
  return out;
}

/** RBP with graded gains as trec_eval 10.0's rbp: labels scaled into [0, 1] by the query's highest. */
function gradedRbp(m: Measure, ranked: Labels, judged: Labels): number {
  const depth = Math.min(m.depth ?? Infinity, m.k ?? Infinity);
  const rr = resRelsOf(m, ranked, judged, 1, Number.isFinite(depth) ? depth : undefined);
  return gainMeasures.rbp.calc(
    rr,
    { values: [], pairs: [{ name: "p", level: NaN, gain: m.p ?? 0.8 }], printable: null },
    { relevanceLevel: 1, numDocsInColl: 0, v10: true },
  )[0];
}

/** Binary RBP (Moffat and Zobel 2008): (1 − p) Σ_{i<K} [label_i ≥ rel] p^i. */
export function binaryRbp(m: Measure, ranked: Labels, _judged?: Labels): number {
  const list = cutLabels(m, ranked);
  const p = m.p ?? 0.8;
  const depth = Math.min(list.length, m.k ?? Infinity);
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < depth; i++) {
    if (list[i] >= m.rel) sum += weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

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

/**
 * nDCG@K with a gain per label (trec_eval's `ndcg.1=3,2=9`, ir_measures' `nDCG(gains={…})`): labels
 * not given keep their own value, negative and unjudged ones gain 0; the ideal ranks the judged
 * labels by gain.
 */
export function ndcgWithGains(
  ranked: Labels,
  judged: Labels,
  k: number | undefined,
  gains: Map<number, number>,
): number {
  const gainOf = (label: number) => (Number.isNaN(label) ? 0 : (gains.get(label) ?? (label > 0 ? label : 0)));
  const ideal = Array.from(judged, gainOf)
    .filter((g) => g > 0)
    .sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(ideal.length, k ?? Infinity); i++) idcg += ideal[i] / Math.log2(i + 2);
  if (idcg <= 0) return 0;
  let dcg = 0;
  for (let i = 0; i < Math.min(ranked.length, k ?? Infinity); i++) {
    const g = gainOf(ranked[i]);
    if (g !== 0) dcg += g / Math.log2(i + 2);
  }
  return dcg / idcg;
}
