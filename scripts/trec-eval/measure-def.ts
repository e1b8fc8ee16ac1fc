import type { ResRels, Settings } from "./res-rels";

/**
 * How a trec_eval measure takes its parameters and names its values (meas_init.c):
 *  - single: one value named as the measure;
 *  - cut-long: integer cut-offs, one value each, `P_10`;
 *  - cut-float: fractional cut-offs, one value each, `iprec_at_recall_0.10`;
 *  - float-params: one value; given parameters are appended to the name as typed (`utility_2,-1,0,0`);
 *  - pair-params: one value; `level=gain` pairs appended as typed (`ndcg_1=3,2=9`).
 */
export type ParamShape = "single" | "cut-long" | "cut-float" | "float-params" | "pair-params";

/**
 * How per-query values become the summary: mean over queries (over every judged query with -c),
 * sum, geometric mean (gm_map), or none (relstring: per query only).
 */
export type Average = "mean" | "sum" | "gm" | "num_q" | "num_rel" | "none";

export interface GainPair {
  level: number;
  gain: number;
  /** The name as typed, for rbp's `p=`. */
  name: string;
}

/** The parameters of one measure, as parsed from `-m name.params` or its defaults. */
export interface MeasureParams {
  values: number[];
  pairs: GainPair[];
  /** The parameter text as given, or null for the defaults. */
  printable: string | null;
}

/** One trec_eval measure (a TREC_MEAS). */
export interface TrecMeasureDef {
  name: string;
  shape: ParamShape;
  defaults: number[];
  average: Average;
  /** Printed per query with -q (gm_map, gm_bpref and num_q are not). */
  perQuery: boolean;
  /** Printed as a whole number. */
  integer?: boolean;
  /** The query's values, one per cut-off (one for the others); unset values stay 0. */
  calc(rr: ResRels, params: MeasureParams, settings: Settings): number[];
}
