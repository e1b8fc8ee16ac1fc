/**
 * The shapes of the measure registry: a parsed measure (`Measure`), how its per-query values combine
 * (`Aggregation`) and the registry entry that says everything about one kind of measure
 * (`MeasureEntry`). Shapes only: the entries live in the files beside this one, collected by index.ts.
 */

/** The label of the item at each rank (index 0 = rank 1); NaN for an item without a label. */
export type Labels = ArrayLike<number>;

export type MeasureKind =
  | "nDCG"
  | "AP"
  | "RR"
  | "P"
  | "R"
  | "Success"
  | "Rank"
  | "Judged"
  | "Coverage"
  | "HLU"
  | "HLU-ratio"
  | "ERR"
  | "RBP"
  | "SetP"
  | "SetRelP"
  | "SetR"
  | "SetF"
  | "SetAP"
  | "IPrec"
  | "Rprec"
  | "Bpref"
  | "infAP"
  | "NumQ"
  | "NumRel"
  | "NumRet"
  | "NumRelRet"
  | "Trec";

/** The kinds named in ir_measures' style (`nDCG@10`); `Trec` is trec_eval's own names. */
export type IrKind = Exclude<MeasureKind, "Trec">;

export interface Measure {
  kind: MeasureKind;
  /** Cutoff; undefined means the whole list. IPrec: the recall level, a fraction. */
  k?: number;
  /** Relevance threshold on gain labels: relevant means label ≥ rel. RBP, NumRet: NaN when not given (graded; every item). */
  rel: number;
  /** nDCG gain: the label itself, or 2^label − 1. */
  gain: "linear" | "exp";
  /** Success and Rank: how many relevant items are needed. */
  g: number;
  /** HLU half-life. */
  a: number;
  /** nDCG: a gain for each label ([label, gain], sorted by label); labels not listed keep their own value. */
  gains?: [number, number][];
  /** RBP persistence. */
  p?: number;
  /** SetF: the weight of recall against precision. */
  beta?: number;
  /** judged_only (trec_eval -J): items without a label ≥ 0 are dropped from each list first. */
  judgedOnly?: boolean;
  /** depth (trec_eval -M): only the top `depth` items of each list count. */
  depth?: number;
  /** Trec: a trec_eval measure by its family (`Rprec_mult`) and the parameter text of its one value (`0.2`). */
  trec?: { family: string; text: string | null };
  name: string;
}

/**
 * How a measure's per-query values combine:
 *  - mean: macro average over queries;
 *  - present-mean: mean over queries with a value (Rank(g): queries with fewer than g relevant items
 *    retrieved have none and are counted apart);
 *  - ratio: Σ values / Σ weights (HLU-ratio: 100 · Σ num / Σ den);
 *  - corpus: a value of the whole query set (Coverage@K), not per query;
 *  - sum: a total over queries (NumRel, NumRet, trec_eval's num_* measures);
 *  - geometric: geometric mean of max(value, 0.00001) (trec_eval's gm_map and gm_bpref).
 */
export type Aggregation = "mean" | "present-mean" | "ratio" | "corpus" | "sum" | "geometric";

/** A parameter a measure's name may carry, besides judged_only and depth, which every measure takes. */
export type Param = "rel" | "gain" | "g" | "a" | "gains" | "p" | "beta";

/** How a measure's name is written. */
export interface MeasureSyntax {
  params: Param[];
  cutoff: "required" | "optional" | "none" | "fraction";
  /** Parameters printed even at their default value. */
  alwaysShown?: ("g" | "a")[];
  /** The forms of the name, for error messages: `Success@K, Success(g=2)@K`. */
  describe: string;
  /** Other names read as this kind, lower case (trec_eval's `map`, `mrr`, the literature's `hr`). */
  aliases?: string[];
}

/** How a figure is shown: the app's MetricKind decides its unit, `direction` which way is better. */
export interface MeasureDisplay {
  label: string;
  kind: "rate" | "rank" | "count" | "score";
  direction: "higher" | "lower";
  /** A short sentence for tooltips and captions, where the name alone does not say it. */
  description?: string;
}

/** The values a measure's parts give for one query: HLU-ratio's numerator and denominator. */
export interface RatioParts {
  num: number;
  den: number;
}

/** Where a measure's values are checked: the test that compares them and the reference it compares to. */
export interface MeasureReference {
  /** The test file (from the project root) that checks the measure's values. */
  test: string;
  /** The fixture (from the project root) holding the reference values; absent for values worked by hand in the test. */
  fixture?: string;
  /** Where the reference values come from. */
  source: string;
}

/**
 * One kind of measure, all in one place: adding a measure is one such entry (and its test). The
 * evaluator computes and aggregates by it, the parser reads names by its syntax, and the app labels
 * figures by its display rules.
 */
export interface MeasureEntry {
  kind: MeasureKind;
  /** The formula in one line, as DESIGN.md gives it. */
  definition: string;
  syntax: MeasureSyntax;
  /** How the per-query values combine (see Aggregation). */
  aggregation: Aggregation | ((m: Measure) => Aggregation);
  /**
   * The value of one query from its ranked labels as given (the entry applies judged_only and depth
   * itself) and every judged label of the query, sorted descending; null where the query has none.
   * Unused for corpus measures.
   */
  perQuery: (m: Measure, ranked: Labels, judged: Labels) => number | null;
  /** Corpus measures: the value of the whole set of lists (each given by its candidate ids). */
  corpus?: (
    m: Measure,
    lists: readonly { qid: string; items?: readonly string[] }[],
    catalog: ReadonlySet<string> | undefined,
  ) => number;
  /** Ratio measures: one query's numerator and denominator; the figure is Σ num / Σ den. */
  parts?: (m: Measure, ranked: Labels, judged: Labels) => RatioParts;
  /** Whether a lower value is the better one (Rank(g)); false when absent. */
  lowerIsBetter?: (m: Measure) => boolean;
  /** How the app names and shows the figure, matched on its canonical name; absent: shown as its name. */
  display?: { pattern: RegExp; show: (match: RegExpMatchArray) => MeasureDisplay }[];
  /**
   * trec_eval families that are this measure under another name (`map_cut.10` is AP@10, `set_F.0.5` is
   * SetF(beta=0.5)): each gives, for one value of the family's parameter, the cutoff and parameters.
   */
  trecNames?: Record<string, (value: number | null) => { cutoff?: number; params?: string[] }>;
  reference: MeasureReference;
}
