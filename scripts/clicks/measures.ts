import { subLog, type ClickLog } from "./log";
import type { ClickModel } from "./model";

/**
 * Log-likelihood as PyClick computes it: the mean of ln p over a session's ranks, then over sessions,
 * p the conditional probability of the observed click value (CLICK-MODELS.md §5.1).
 */
export function logLikelihood(model: ClickModel, test: ClickLog): number {
  const p = new Float64Array(test.maxRank);
  let total = 0;
  for (let s = 0; s < test.size; s++) {
    model.conditional(test, s, p);
    let sum = 0;
    for (let r = 0; r < test.length[s]; r++) sum += Math.log(p[r]);
    total += sum / test.length[s];
  }
  return total / test.size;
}

/**
 * Perplexity per rank, PP_r = 2^(−(1/N) Σ_s log2 q_{s,r}), and overall the mean of the PP_r (Dupret &
 * Piwowarski 2008, as PyClick). `conditional`: q from the probabilities given the clicks above
 * (PerplexityCond), else from the unconditional P(C_r = 1); a q ≤ 0 is skipped, N stays the divisor.
 */
export function perplexity(
  model: ClickModel,
  test: ClickLog,
  conditional = false,
): { overall: number; byRank: number[] } {
  const R = test.maxRank;
  const p = new Float64Array(R);
  const sums = new Float64Array(R);
  let deepest = 0;
  for (let s = 0; s < test.size; s++) {
    if (conditional) model.conditional(test, s, p);
    else model.full(test, s, p);
    const n = test.length[s];
    deepest = Math.max(deepest, n);
    for (let r = 0; r < n; r++) {
      const q = conditional || test.click[s * R + r] ? p[r] : 1 - p[r];
      if (q > 0) sums[r] += Math.log(q) / Math.LN2;
    }
  }
  const byRank = Array.from(sums.subarray(0, deepest), (x) => 2 ** (-x / test.size));
  return { overall: byRank.reduce((a, b) => a + b, 0) / byRank.length, byRank };
}

/**
 * CTR@1 prediction (Chapelle & Zhang 2009 §4.2, as PyClick's CTRPrediction): per query, sessions whose
 * top result d is not yet a test list's form (test: those with d on top; train: those showing d
 * lower); the model is trained further on train and P(C_0 = 1) of the first test session compared with
 * the test sessions' CTR at rank 0. RMSE weighted by test size. PyClick (`pyclick`) stops a query at
 * the first repeated top result and keeps every pair's extra training; textbook skips the repeat and
 * trains each pair from the model fitted on the training log.
 */
export function ctrPredictionRmse(
  model: ClickModel,
  test: ClickLog,
  progress?: (done: number, total: number) => void,
): number {
  return rmseOf(ctrPredictionTerms(model, test, progress));
}

/** One compared test list of CTR@1 prediction: its query, weight (test sessions) and squared error. */
export interface CtrPredictionTerm {
  query: number;
  weight: number;
  squaredError: number;
}

/** √(Σ weight · squared error / Σ weight): CTR@1 prediction's RMSE from its terms. */
export function rmseOf(terms: readonly CtrPredictionTerm[]): number {
  let sum = 0;
  let weights = 0;
  for (const t of terms) {
    sum += t.weight * t.squaredError;
    weights += t.weight;
  }
  return Math.sqrt(sum / weights);
}

/** `ctrPredictionRmse`'s terms, one per compared test list (it trains the model further: call it once). */
export function ctrPredictionTerms(
  model: ClickModel,
  test: ClickLog,
  progress?: (done: number, total: number) => void,
): CtrPredictionTerm[] {
  const R = test.maxRank;
  const pyclick = model.mode === "pyclick";
  const byQuery = new Map<number, number[]>();
  for (let s = 0; s < test.size; s++) {
    const list = byQuery.get(test.query[s]);
    if (list) list.push(s);
    else byQuery.set(test.query[s], [s]);
  }
  model.ensure(test.vocabulary.pairCount);
  const p = new Float64Array(R);
  const terms: CtrPredictionTerm[] = [];
  let done = 0;
  for (const group of byQuery.values()) {
    const formed = new Set<string>();
    for (const s of group) {
      const top = test.vocabulary.pairDoc[test.pair[s * R]];
      if (formed.has(top)) {
        if (pyclick) break;
        continue;
      }
      const tests = [s];
      const train: number[] = [];
      for (const t of group) {
        if (t === s) continue;
        if (test.vocabulary.pairDoc[test.pair[t * R]] === top) tests.push(t);
        else {
          for (let r = 1; r < test.length[t]; r++) {
            if (test.vocabulary.pairDoc[test.pair[t * R + r]] === top) {
              train.push(t);
              break;
            }
          }
        }
      }
      if (!train.length) continue;
      formed.add(top);
      const extra = subLog(test, train);
      if (pyclick) model.train(extra);
      const revert = pyclick ? null : model.trainReverting(extra);
      model.full(test, s, p);
      revert?.();
      const ctr = tests.filter((t) => test.click[t * R]).length / tests.length;
      terms.push({ query: test.query[s], weight: tests.length, squaredError: (p[0] - ctr) ** 2 });
    }
    progress?.(++done, byQuery.size);
  }
  return terms;
}

/** Graded labels: query → document → grade. */
export type Grades = Map<string, Map<string, number>>;

/**
 * Relevance prediction: ROC AUC of the model's relevance against binary labels (grade ≥ 1), one entry
 * per test occurrence of a judged pair (as PyClick); ties count one half (midranks). Null when the
 * model has no relevance or one class is missing; also Pearson's r (null for a constant prediction).
 */
export function relevancePrediction(
  model: ClickModel,
  test: ClickLog,
  grades: Grades,
): { auc: number | null; pearsonR: number | null } {
  const pairs = relevancePairs(model, test, grades);
  if (!pairs) return { auc: null, pearsonR: null };
  return { auc: auc(pairs.y, pairs.yHat), pearsonR: pearson(pairs.y, pairs.yHat) };
}

/**
 * The judged test occurrences relevance prediction reads: label (grade ≥ 1), the model's relevance and
 * the test session of each; null when the model has no relevance.
 */
export function relevancePairs(
  model: ClickModel,
  test: ClickLog,
  grades: Grades,
): { y: number[]; yHat: number[]; session: number[] } | null {
  const R = test.maxRank;
  const y: number[] = [];
  const yHat: number[] = [];
  const session: number[] = [];
  for (let s = 0; s < test.size; s++) {
    const judged = grades.get(test.vocabulary.queries[test.query[s]]);
    if (!judged) continue;
    for (let r = 0; r < test.length[s]; r++) {
      const pair = test.pair[s * R + r];
      const grade = judged.get(test.vocabulary.pairDoc[pair]);
      if (grade === undefined) continue;
      const rel = model.relevance(pair);
      if (rel === null) return null;
      y.push(grade >= 1 ? 1 : 0);
      yHat.push(rel);
      session.push(s);
    }
  }
  return { y, yHat, session };
}

/** ROC AUC = (Σ midrank(ŷ) over positives − n₁(n₁+1)/2) / (n₁ n₀), as sklearn's roc_auc_score. */
export function auc(y: number[], score: number[]): number | null {
  const order = score.map((_, i) => i).sort((a, b) => score[a] - score[b]);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && score[order[j + 1]] === score[order[i]]) j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (!y[order[k]]) continue;
      positives++;
      rankSum += mid;
    }
    i = j + 1;
  }
  const negatives = y.length - positives;
  if (!positives || !negatives) return null;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Pearson's r; null when either side is constant. */
export function pearson(x: number[], y: number[]): number | null {
  const n = x.length;
  // A constant side (exactly, not up to the rounding of its mean) has no correlation, as scipy says.
  if (x.every((v) => v === x[0]) || y.every((v) => v === y[0])) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/**
 * Ranking performance: mean NDCG@5 (gain 2^g − 1, discount log2(i + 2)) of the documents shown for a
 * query, stably sorted by predicted relevance, over queries with ≥ `minSessions` test sessions and
 * labels; the ideal is the five best grades among all the query's labels (queries where all are 0 are
 * skipped); an unlabelled document counts 0.5 (as PyClick's RankingPerformance).
 * Not scripts/eval/registry/ndcg.ts (Assay's nDCG of a list of labels): PyClick's conventions (an
 * unlabelled document gains 0.5, an ideal of the five best grades, log2 as Math.log(x) / ln 2, which
 * differs in the last bits) are what the clicks-small fixture checks, so this one must stay.
 */
export function rankingNdcg5(
  model: ClickModel,
  test: ClickLog,
  grades: Grades,
  minSessions = 10,
): number | null {
  return meanOfQueries(rankingNdcg5PerQuery(model, test, grades, minSessions));
}

/** The mean of per-query values in order (nDCG@5), null for none. */
export function meanOfQueries(values: readonly number[] | null): number | null {
  if (!values?.length) return null;
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}

/** `rankingNdcg5`'s value of each query it averages, in query order; null when the model has no relevance. */
export function rankingNdcg5PerQuery(
  model: ClickModel,
  test: ClickLog,
  grades: Grades,
  minSessions = 10,
): number[] | null {
  const R = test.maxRank;
  const count = new Map<number, number>();
  for (let s = 0; s < test.size; s++) count.set(test.query[s], (count.get(test.query[s]) ?? 0) + 1);
  const dcg = (gains: number[]) =>
    gains.reduce((sum, g, i) => sum + (2 ** g - 1) / (Math.log(i + 2) / Math.LN2), 0);
  const values: number[] = [];
  for (const [q, n] of count) {
    const judged = grades.get(test.vocabulary.queries[q]);
    if (n < minSessions || !judged) continue;
    const ideal = [...judged.values()].sort((a, b) => b - a).slice(0, 5);
    if (!ideal.some((g) => g !== 0)) continue;
    const shown = new Map<number, number>();
    for (let s = 0; s < test.size; s++) {
      if (test.query[s] !== q) continue;
      for (let r = 0; r < test.length[s]; r++) {
        const pair = test.pair[s * R + r];
        if (!shown.has(pair)) {
          const rel = model.relevance(pair);
          if (rel === null) return null;
          shown.set(pair, rel);
        }
      }
    }
    const ranking = [...shown].sort((a, b) => b[1] - a[1]).slice(0, 5);
    const gains = ranking.map(([pair]) => judged.get(test.vocabulary.pairDoc[pair]) ?? 0.5);
    values.push(dcg(gains) / dcg(ideal));
  }
  return values;
}
