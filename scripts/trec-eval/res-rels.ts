/** A retrieved document absent from the qrels (trec_eval's RELVALUE_NONPOOL). */
export const NONPOOL = -1;
/** A retrieved document in the qrels with a negative label: pooled but unjudged (RELVALUE_UNJUDGED). */
export const UNJUDGED = -2;

/**
 * One query as trec_eval's measures see it (its RES_RELS): the relevance of each retrieved document
 * in rank order, and counts over the judgements.
 */
export interface ResRels {
  /** Per rank: the judged label (≥ 0), NONPOOL or UNJUDGED. */
  list: Int32Array;
  numRet: number;
  /** Judged documents with label ≥ the relevance level. */
  numRel: number;
  numRelRet: number;
  numNonpool: number;
  numUnjudgedInPool: number;
  /** How many judgements carry each label 0, 1, 2, … (negative labels are not counted). */
  relLevels: number[];
  /** One more than the highest label with a judgement. */
  numRelLevels: number;
}

/** The evaluation settings every measure may read (trec_eval's EPI). */
export interface Settings {
  /** -l: the lowest label that counts as relevant. */
  relevanceLevel: number;
  /** -N: documents in the collection (utility's fourth coefficient). */
  numDocsInColl: number;
  /** --v10: trec_eval 10.0's behaviour (rounded recall cut-offs) instead of 9.0.8's. */
  v10: boolean;
}

/**
 * trec_eval's form_res_rels from a ranked list of labels: `ranked` in rank order (NaN: not in the
 * qrels; negative: pooled but unjudged), `judged` every label of the query's judgements. `judgedOnly`
 * (-J) drops documents without a label ≥ 0 before anything is counted; `maxRetrieved` (-M) keeps the
 * top of the list only, before -J as trec_eval does.
 */
export function resRelsFromLabels(
  ranked: ArrayLike<number>,
  judged: ArrayLike<number>,
  relevanceLevel: number,
  options: { judgedOnly?: boolean; maxRetrieved?: number } = {},
): ResRels {
  const depth = Math.min(ranked.length, options.maxRetrieved ?? Infinity);
  let maxRel = 0;
  for (let i = 0; i < judged.length; i++) if (judged[i] > maxRel) maxRel = judged[i];
  const relLevels = new Array<number>(maxRel + 1).fill(0);
  for (let i = 0; i < judged.length; i++) if (judged[i] >= 0) relLevels[judged[i]]++;
  const list = new Int32Array(depth);
  let numRet = 0;
  let numRelRet = 0;
  let numNonpool = 0;
  let numUnjudgedInPool = 0;
  for (let i = 0; i < depth; i++) {
    const label = ranked[i];
    const rel = Number.isNaN(label) ? NONPOOL : label < 0 ? UNJUDGED : label;
    if (options.judgedOnly) {
      if (rel < 0) continue;
    } else if (rel === NONPOOL) numNonpool++;
    else if (rel === UNJUDGED) numUnjudgedInPool++;
    if (rel >= 0 && rel >= relevanceLevel) numRelRet++;
    list[numRet++] = rel;
  }
  let numRel = 0;
  let numRelLevels = 0;
  relLevels.forEach((count, level) => {
    if (count) {
      numRelLevels = level + 1;
      if (level >= relevanceLevel) numRel += count;
    }
  });
  return {
    list: list.subarray(0, numRet),
    numRet,
    numRel,
    numRelRet,
    numNonpool,
    numUnjudgedInPool,
    relLevels,
    numRelLevels,
  };
}
