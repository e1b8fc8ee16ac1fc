import { instantiate, trecMeasureDef, type TrecMeasure } from "../trec-eval/registry";
import { resRelsFromLabels, type ResRels, type Settings } from "../trec-eval/res-rels";
import type { Labels, Measure } from "./registry/types";

/**
 * The bridge from a list of labels to trec_eval 10.0's own computation (doubles, rounded recall
 * cut-offs), for the registry entries whose values are trec_eval's: trec_eval's own measures (gm_map,
 * Rprec_mult, G, …) and the ir_measures ones that are the same numbers (SetP, IPrec, Bpref, NumRel, …).
 * Ranked labels: NaN not in the qrels, negative pooled but unjudged; judged: every judged label of a query.
 */

// One query's res_rels and measure instances, kept while the same query's measures are computed
// (EvaluationBuilder asks for every measure of a query in a row, with the same arrays).
let cachedRanked: Labels | null = null;
let cachedJudged: Labels | null = null;
const resRelsCache = new Map<string, ResRels>();
// Per measure object, so that a query's hundred measures build no strings: its instance and cache key.
const instances = new WeakMap<Measure, TrecMeasure>();
const keys = new WeakMap<Measure, string>();

/** trec_eval's res_rels of one query at relevance level `level`, cut by the measure's judged_only and depth. */
export function resRelsOf(
  m: Measure,
  ranked: Labels,
  judged: Labels,
  level: number,
  depth = m.depth,
): ResRels {
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

/** The relevance level trec_eval reads a measure at: its rel, or 1 where it has none (graded RBP, NumRet). */
export const levelOf = (m: Measure) => (Number.isNaN(m.rel) ? 1 : m.rel);

function instanceOf(m: Measure, family: string, text: string | null): TrecMeasure {
  let instance = instances.get(m);
  if (!instance) instances.set(m, (instance = instantiate(trecMeasureDef(family)!, text)));
  return instance;
}

const settingsByLevel = new Map<number, Settings>();
/** trec_eval 10.0's settings at a relevance level. */
export function settingsOf(level: number): Settings {
  let settings = settingsByLevel.get(level);
  if (!settings)
    settingsByLevel.set(level, (settings = { relevanceLevel: level, numDocsInColl: 0, v10: true }));
  return settings;
}

/** An empty or all-unjudged list gives 0, not 0/0. */
export const finiteOrZero = (value: number) => (Number.isFinite(value) ? value : 0);

/** One query's value of the trec_eval measure `family` with parameter text `text` (one value of it). */
export function trecFamilyValue(
  m: Measure,
  family: string,
  text: string | null,
  ranked: Labels,
  judged: Labels,
): number {
  const level = levelOf(m);
  const instance = instanceOf(m, family, text);
  let value = instance.def.calc(resRelsOf(m, ranked, judged, level), instance.params, settingsOf(level))[0];
  // gm_map and gm_bpref give log(max(v, 0.00001)); the column holds max(v, 0.00001) and averages geometrically.
  if (instance.def.average === "gm") value = Math.exp(value);
  return finiteOrZero(value);
}
