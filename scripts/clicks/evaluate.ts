import { buildLog, subLog, Vocabulary, type ClickLog, type RawSession } from "./log";
import {
  auc,
  ctrPredictionTerms,
  logLikelihood,
  meanOfQueries,
  pearson,
  perplexity,
  rankingNdcg5PerQuery,
  relevancePairs,
  rmseOf,
  type Grades,
} from "./measures";
import {
  aucInterval,
  clusterIndex,
  fitIntervals,
  fitTerms,
  queryMeanInterval,
  rmseInterval,
  type ClickIntervalOptions,
  type FitIntervals,
} from "./intervals";
import type { ClickModel, Mode, Progress } from "./model";
import type { Interval } from "../stats/bootstrap";
import { createModel } from "./models";

export interface ModelReport {
  logLikelihood: number;
  perplexity: number;
  perplexityByRank: number[];
  perplexityCond: number;
  perplexityCondByRank: number[];
  ctrPredictionRmse: number;
  relevanceAuc: number | null;
  relevancePearsonR: number | null;
  rankingNdcg5: number | null;
  trainSeconds: number;
  params: Record<string, unknown>;
  /**
   * The measures' intervals, when asked for (`intervals`): log-likelihood and perplexity over the
   * clusters, relevance AUC over the clusters of its judged occurrences' sessions, CTR@1 RMSE and
   * nDCG@5 over queries (each of their terms belongs to one query).
   */
  intervals:
    | (FitIntervals & {
        ctrPredictionRmse: Interval | null;
        relevanceAuc: Interval | null;
        rankingNdcg5: Interval | null;
      })
    | null;
}

export interface ClicksReport {
  train: { sessions: number };
  test: { sessions: number; dropped: number };
  models: Record<string, ModelReport>;
}

export interface EvaluateOptions {
  models: string[];
  mode?: Mode;
  iterations?: number;
  maxRank?: number;
  grades?: Grades;
  /** `params` under PyClick's names (attr, sat, cont, …), to set beside PyClick's output. */
  pyclickNames?: boolean;
  /** Called as each model starts a phase, with that phase's progress callback. */
  onPhase?: (model: string, phase: string) => Progress;
  /**
   * Bootstrap intervals of log-likelihood and perplexity over clusters of test sessions: `clusterOf`
   * names a session's cluster from its id (default: its query).
   */
  intervals?: ClickIntervalOptions & { clusterOf?: (sessionId: string) => string };
  /** Called as each model is fitted and evaluated: models done, of all asked for. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Fits each model on `train` and evaluates it on the test sessions whose query occurs in training, in
 * PyClick's order (CLICK-MODELS.md §6): CTR@1 prediction last, because it trains the model further.
 */
export function evaluateClickModels(
  train: RawSession[],
  test: RawSession[],
  options: EvaluateOptions,
): ClicksReport {
  const maxRank = options.maxRank ?? 10;
  const vocabulary = new Vocabulary();
  return evaluateSplit(buildLog(train, vocabulary, maxRank), buildLog(test, vocabulary, maxRank), options);
}

/** `evaluateClickModels` on logs already read into one vocabulary. */
export function evaluateSplit(train: ClickLog, test: ClickLog, options: EvaluateOptions): ClicksReport {
  const kept = knownQueries(train, test);
  const models = evaluateLogs(train, kept, options);
  return {
    train: { sessions: train.size },
    test: { sessions: kept.size, dropped: test.size - kept.size },
    models,
  };
}

/** Test sessions whose query occurs in `train` (both logs share one vocabulary). */
export function knownQueries(train: ClickLog, test: ClickLog): ClickLog {
  const known = new Uint8Array(train.vocabulary.queries.length);
  for (let s = 0; s < train.size; s++) known[train.query[s]] = 1;
  const kept: number[] = [];
  for (let s = 0; s < test.size; s++) if (known[test.query[s]]) kept.push(s);
  return kept.length === test.size ? test : subLog(test, kept);
}

/** `evaluateClickModels` on logs already read; `test` must hold only queries that occur in `train`. */
export function evaluateLogs(
  trainLog: ClickLog,
  testLog: ClickLog,
  options: EvaluateOptions,
): Record<string, ModelReport> {
  const vocabulary = trainLog.vocabulary;
  const maxRank = trainLog.maxRank;
  const models: Record<string, ModelReport> = {};
  const clusters = options.intervals ? testClusters(testLog, options.intervals.clusterOf) : null;
  for (const name of options.models) {
    const model = createModel(name, { mode: options.mode, maxRank, iterations: options.iterations });
    const started = performance.now();
    model.train(trainLog, options.onPhase?.(model.name, "fitting"));
    const trainSeconds = (performance.now() - started) / 1000;
    const params = options.pyclickNames ? model.pyclickValues(vocabulary) : model.values(vocabulary);
    model.ensure(vocabulary.pairCount);
    models[model.name] = { ...testMeasures(model, testLog, options, clusters), trainSeconds, params };
    options.onProgress?.(Object.keys(models).length, options.models.length);
  }
  return models;
}

/**
 * One fitted model's measures on the test log, with their intervals when asked for; CTR@1 prediction
 * last, because it trains the model further (PyClick's order).
 */
function testMeasures(
  model: ClickModel,
  testLog: ClickLog,
  options: EvaluateOptions,
  clusters: { of: Int32Array; count: number } | null,
): Omit<ModelReport, "trainSeconds" | "params"> {
  const ll = logLikelihood(model, testLog);
  const pp = perplexity(model, testLog);
  const ppc = perplexity(model, testLog, true);
  const judged = options.grades ? relevancePairs(model, testLog, options.grades) : null;
  const relevanceAuc = judged ? auc(judged.y, judged.yHat) : null;
  const ndcg = options.grades ? rankingNdcg5PerQuery(model, testLog, options.grades) : null;
  const fit =
    clusters && options.intervals
      ? fitIntervals(fitTerms(model, testLog), clusters, options.intervals)
      : null;
  const ctr = ctrPredictionTerms(model, testLog, options.onPhase?.(model.name, "CTR@1"));
  const ci = options.intervals;
  return {
    logLikelihood: ll,
    perplexity: pp.overall,
    perplexityByRank: pp.byRank,
    perplexityCond: ppc.overall,
    perplexityCondByRank: ppc.byRank,
    relevanceAuc,
    relevancePearsonR: judged ? pearson(judged.y, judged.yHat) : null,
    rankingNdcg5: meanOfQueries(ndcg),
    ctrPredictionRmse: rmseOf(ctr),
    intervals:
      fit && ci && clusters
        ? {
            ...fit,
            ctrPredictionRmse: rmseInterval(ctr, ci),
            relevanceAuc: judged && relevanceAuc !== null ? aucInterval(judged, clusters, ci) : null,
            rankingNdcg5: ndcg?.length ? queryMeanInterval(ndcg, ci) : null,
          }
        : null,
  };
}

/** The test log's sessions numbered by cluster: `clusterOf` their id, or their query. */
function testClusters(test: ClickLog, clusterOf?: (sessionId: string) => string) {
  const queries = test.vocabulary.queries;
  return clusterIndex(
    Array.from({ length: test.size }, (_, s) =>
      clusterOf ? clusterOf(test.ids[s]) : queries[test.query[s]],
    ),
  );
}
