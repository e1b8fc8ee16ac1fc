import type { MeasureParams, TrecMeasureDef } from "./measure-def";
import { coreMeasures } from "./measures-core";
import { gainMeasures } from "./measures-gain";
import { interpolatedMeasures } from "./measures-interpolated";
import { atof, atol, cFixed } from "./printf";

export class TrecMeasureError extends Error {}

const relstring: TrecMeasureDef = {
  name: "relstring",
  shape: "float-params",
  defaults: [10],
  average: "none",
  perQuery: true,
  calc: () => [0],
};
const runid: TrecMeasureDef = {
  name: "runid",
  shape: "single",
  defaults: [],
  average: "none",
  perQuery: false,
  calc: () => [0],
};
const defs: Record<string, TrecMeasureDef> = {
  runid,
  relstring,
  ...coreMeasures,
  ...interpolatedMeasures,
  ...gainMeasures,
};

/** trec_eval 9.0.8's measures in its order (measures.c), which is the order they print in. */
const order908 = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "iprec_at_recall",
  "P",
  "relstring",
  "recall",
  "infAP",
  "gm_bpref",
  "Rprec_mult",
  "utility",
  "11pt_avg",
  "binG",
  "G",
  "ndcg",
  "ndcg_rel",
  "Rndcg",
  "ndcg_cut",
  "map_cut",
  "relative_P",
  "success",
  "set_P",
  "set_relative_P",
  "set_recall",
  "set_map",
  "set_F",
  "num_nonrel_judged_ret",
];
/** 10.0 added these, printed after the others. */
const added10 = ["rbp", "rbp_resid", "unj"];

const officialNames = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "iprec_at_recall",
  "P",
];
const setNames = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "utility",
  "set_P",
  "set_recall",
  "set_relative_P",
  "set_map",
  "set_F",
];

/** The measure names a nickname stands for (`official`, `set`, `all_trec`). */
export function nicknames(v10: boolean): Record<string, string[]> {
  return { official: officialNames, set: setNames, all_trec: [...order908, ...(v10 ? added10 : [])] };
}

/** Every measure name trec_eval (10.0) knows, for help and validation. */
export const trecMeasureNames = [...order908, ...added10];

/** One measure to compute, with its parameters and the names of its values. */
export interface TrecMeasure {
  def: TrecMeasureDef;
  params: MeasureParams;
  /** One per value: `P_10`, `ndcg_cut_20`, `utility_2,-1,0,0`. */
  names: string[];
}

function parseCutoffs(def: TrecMeasureDef, text: string): number[] {
  const integer = def.shape === "cut-long";
  const values = text.split(",").map((part) => (integer ? atol(part) : atof(part)));
  values.sort((a, b) => a - b);
  if (integer && values[0] <= 0)
    throw new TrecMeasureError(
      `${def.name}: cut-offs must be positive (trec_eval: Negative cutoff detected)`,
    );
  for (let i = 1; i < values.length; i++)
    if (values[i - 1] === values[i])
      throw new TrecMeasureError(
        `${def.name}: a cut-off is given twice (trec_eval: duplicate cutoffs detected)`,
      );
  return values;
}

function parsePairs(def: TrecMeasureDef, text: string) {
  // The check of get_param_pairs: every comma-separated part is name=value.
  let last = ",";
  let bad = false;
  for (const ch of text) {
    if (ch === ",") {
      if (last === ",") {
        bad = true;
        break;
      }
      last = ",";
    } else if (ch === "=") {
      if (last === "=") {
        bad = true;
        break;
      }
      last = "=";
    }
  }
  if (bad || last !== "=")
    throw new TrecMeasureError(
      `${def.name}: malformed pair parameters in '${text}' (level=gain, comma-separated)`,
    );
  return text.split(",").map((part) => {
    const [name, value] = part.split("=");
    return { name, level: /^[+-]?\d+$/.test(name) ? atol(name) : NaN, gain: atof(value ?? "") };
  });
}

/**
 * The measures `-m` arguments ask for, in trec_eval's order: each argument a measure, a nickname,
 * or `name.params`; the first parameters given for a measure are the ones used, as in trec_eval.
 */
export function selectMeasures(args: string[], v10: boolean): TrecMeasure[] {
  const marked = new Set<string>();
  const paramText = new Map<string, string>();
  const known = v10 ? trecMeasureNames : order908;
  const groups = nicknames(v10);
  for (const arg of args.length ? args : ["official"]) {
    const dot = arg.indexOf(".");
    const name = dot >= 0 ? arg.slice(0, dot) : arg;
    if (dot >= 0) {
      const text = arg.slice(dot + 1);
      if (text === "") throw new TrecMeasureError(`improper measure in parameter '${name}'`);
      if (!paramText.has(name)) paramText.set(name, text);
    }
    if (groups[name]) groups[name].forEach((n) => marked.add(n));
    else if (known.includes(name)) marked.add(name);
    else
      throw new TrecMeasureError(
        `illegal measure '${arg}' (known: ${known.join(", ")}; nicknames: ${Object.keys(groups).join(", ")})`,
      );
  }
  return known.filter((n) => marked.has(n)).map((n) => instantiate(defs[n], paramText.get(n) ?? null));
}

/** A measure with the given parameter text (null: its defaults) and the names its values print under. */
export function instantiate(def: TrecMeasureDef, text: string | null): TrecMeasure {
  const params: MeasureParams = { values: def.defaults, pairs: [], printable: text };
  if (text !== null) {
    if (def.shape === "cut-long" || def.shape === "cut-float") params.values = parseCutoffs(def, text);
    else if (def.shape === "float-params") params.values = text.split(",").map(atof);
    else if (def.shape === "pair-params") params.pairs = parsePairs(def, text);
  }
  let names: string[];
  if (def.shape === "cut-long") names = params.values.map((v) => `${def.name}_${v}`);
  else if (def.shape === "cut-float") names = params.values.map((v) => `${def.name}_${cFixed(v, 2)}`);
  else if (def.shape === "single") names = [def.name];
  else names = [text === null ? def.name : `${def.name}_${text}`];
  return { def, params, names };
}

/** A measure by its trec_eval name (`ndcg_cut`), for callers outside trec_eval mode. */
export function trecMeasureDef(name: string): TrecMeasureDef | undefined {
  return trecMeasureNames.includes(name) ? defs[name] : undefined;
}
