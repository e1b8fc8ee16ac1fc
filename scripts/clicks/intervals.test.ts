import { evaluateSplit } from "./evaluate";
import {
  armCtrIntervals,
  aucInterval,
  clusterIndex,
  fitIntervals,
  fitTerms,
  queryMeanInterval,
  rmseInterval,
  type FitTerms,
} from "./intervals";
import { subLog, Vocabulary } from "./log";
import { auc, logLikelihood, perplexity } from "./measures";
import { createRng } from "../lib/random";
import { createModel } from "./models";
import { simulateDbnLog } from "./simulate";

const options = { B: 2000, seed: "s" };

/**
 * Two clusters: a resample is {A, A}, {A, B} or {B, B} with probabilities ¼, ½, ¼, so with B = 2000 each
 * bound of the 95% percentile interval is the statistic of a cluster drawn twice (the 2.5% and 97.5%
 * quantiles fall inside the ¼ at either end; no draw of {A, A} among 2000 has probability 0.75^2000).
 */
describe("hand-worked two-cluster cases", () => {
  it("log-likelihood and perplexity run from one cluster's figures to the other's", () => {
    // Sessions 1 and 2 are cluster A, session 3 is cluster B; two ranks.
    const terms: FitTerms = {
      sessions: 3,
      maxRank: 2,
      deepest: 2,
      logLikelihood: Float64Array.from([-0.5, -1, -0.2]),
      log2q: Float64Array.from([-1, -1, -2, 0, 0, -1]),
    };
    const got = fitIntervals(terms, { of: Int32Array.from([0, 0, 1]), count: 2 }, options);
    // A twice: LL (−0.5 − 1)/2 = −0.75; Σlog2q per rank (−3, −1) over 2 sessions: PP = 2^1.5, 2^0.5.
    // B twice: LL −0.2; PP = 2^0 = 1, 2^1 = 2.
    expect(got.logLikelihood!.lower).toBeCloseTo(-0.75, 12);
    expect(got.logLikelihood!.upper).toBeCloseTo(-0.2, 12);
    expect(got.perplexity!.lower).toBeCloseTo(1.5, 12);
    expect(got.perplexity!.upper).toBeCloseTo((2 ** 1.5 + 2 ** 0.5) / 2, 12);
    expect(got.perplexityByRank[0]!.lower).toBeCloseTo(1, 12);
    expect(got.perplexityByRank[0]!.upper).toBeCloseTo(2 ** 1.5, 12);
    expect(got.perplexityByRank[1]!.lower).toBeCloseTo(2 ** 0.5, 12);
    expect(got.perplexityByRank[1]!.upper).toBeCloseTo(2, 12);
  });

  it("raw and corrected CTR are ratios of the drawn conveners' sums", () => {
    // Convener 1: 10 shown, 2 clicks, weighted 3; convener 2: 5 shown, 3 clicks, weighted 6.
    const got = armCtrIntervals(
      {
        shown: Float64Array.from([10, 5]),
        clicks: Float64Array.from([2, 3]),
        weighted: Float64Array.from([3, 6]),
      },
      { ...options, arm: "A" },
    );
    expect(got.ctr!.lower).toBeCloseTo(0.2, 12);
    expect(got.ctr!.upper).toBeCloseTo(0.6, 12);
    expect(got.correctedCtr!.lower).toBeCloseTo(0.3, 12);
    expect(got.correctedCtr!.upper).toBeCloseTo(1.2, 12);
  });
});

describe("hand-worked two-cluster cases of the other measures", () => {
  it("CTR@1 RMSE resamples queries: from the better query drawn twice to the worse", () => {
    // Query 1: one test list of weight 2, squared error 0.01; query 2: weight 1, squared error 0.25.
    const got = rmseInterval(
      [
        { query: 1, weight: 2, squaredError: 0.01 },
        { query: 2, weight: 1, squaredError: 0.25 },
      ],
      options,
    );
    expect(got!.lower).toBeCloseTo(0.1, 12);
    expect(got!.upper).toBeCloseTo(0.5, 12);
  });

  it("relevance AUC resamples the occurrences' clusters: 0 and 1 are each a cluster drawn twice", () => {
    // Cluster 0 ranks its member above its non-member (AUC 1), cluster 1 below (AUC 0); both: 3 of 4 pairs.
    const pairs = { y: [1, 0, 1, 0], yHat: [0.9, 0.1, 0.2, 0.8], session: [0, 0, 1, 1] };
    expect(auc(pairs.y, pairs.yHat)).toBe(0.75);
    expect(aucInterval(pairs, { of: Int32Array.from([0, 1]), count: 2 }, options)).toEqual({
      lower: 0,
      upper: 1,
    });
  });

  it("relevance AUC over one cluster is the AUC itself, ties counted one half", () => {
    const rng = createRng("auc");
    const y = Array.from({ length: 300 }, () => (rng.next() < 0.3 ? 1 : 0));
    // Scores on a coarse grid, so many are tied.
    const yHat = y.map((v) => Math.round((rng.next() + v * 0.4) * 10) / 10);
    const whole = auc(y, yHat)!;
    const got = aucInterval(
      { y, yHat, session: y.map(() => 0) },
      { of: new Int32Array(1), count: 1 },
      options,
    );
    expect(got!.lower).toBeCloseTo(whole, 12);
    expect(got!.upper).toBeCloseTo(whole, 12);
  });

  it("nDCG@5 is a mean over queries: from the lower query drawn twice to the higher", () => {
    expect(queryMeanInterval([0.2, 0.8], options)).toEqual({ lower: 0.2, upper: 0.8 });
  });
});

describe("on a simulated log", () => {
  const vocabulary = new Vocabulary();
  const { log } = simulateDbnLog({ sessions: 1200, queries: 30, seed: "iv" }, vocabulary);
  const train = subLog(
    log,
    Array.from({ length: 900 }, (_, i) => i),
  );
  const test = subLog(
    log,
    Array.from({ length: 300 }, (_, i) => 900 + i),
  );

  it("a single cluster gives the whole log's own figures, as measures.ts computes them", () => {
    const model = createModel("PBM");
    model.train(train);
    model.ensure(vocabulary.pairCount);
    const got = fitIntervals(fitTerms(model, test), { of: new Int32Array(test.size), count: 1 }, options);
    const pp = perplexity(model, test);
    expect(got.logLikelihood!.lower).toBeCloseTo(logLikelihood(model, test), 12);
    expect(got.logLikelihood!.upper).toBeCloseTo(logLikelihood(model, test), 12);
    expect(got.perplexity!.lower).toBeCloseTo(pp.overall, 12);
    expect(got.perplexityByRank.map((ci) => ci!.upper)).toEqual(pp.byRank.map((v) => expect.closeTo(v, 12)));
  });

  it("evaluateSplit puts each model's figure inside its interval, the same for the same seed", () => {
    const run = (seed: string) =>
      evaluateSplit(train, test, { models: ["PBM", "DBN"], intervals: { B: 500, seed } }).models;
    const first = run("a");
    for (const m of Object.values(first)) {
      expect(m.intervals!.logLikelihood!.lower).toBeLessThan(m.logLikelihood);
      expect(m.intervals!.logLikelihood!.upper).toBeGreaterThan(m.logLikelihood);
      expect(m.intervals!.perplexity!.lower).toBeLessThan(m.perplexity);
      expect(m.intervals!.perplexity!.upper).toBeGreaterThan(m.perplexity);
    }
    expect(run("a").PBM.intervals).toEqual(first.PBM.intervals);
    expect(run("b").PBM.intervals).not.toEqual(first.PBM.intervals);
  });

  it("resampling whole queries is wider than resampling sessions when a query's sessions are alike", () => {
    const model = createModel("GCTR");
    model.train(train);
    const terms = fitTerms(model, test);
    const queries = clusterIndex(Array.from(test.query, String));
    const sessions = clusterIndex(test.ids);
    const width = (ci: { lower: number; upper: number } | null) => ci!.upper - ci!.lower;
    // GCTR predicts one rate for every query, so how well it fits varies by query, not only by session.
    expect(width(fitIntervals(terms, queries, options).logLikelihood)).toBeGreaterThan(
      width(fitIntervals(terms, sessions, options).logLikelihood),
    );
  });
});

it("numbers clusters in first-seen order", () => {
  expect(clusterIndex(["u2", "u1", "u2", "u3"])).toEqual({ of: Int32Array.from([0, 1, 0, 2]), count: 3 });
});
