import fs from "node:fs";
import path from "node:path";
import { evaluateClickModels, type ClicksReport } from "./evaluate";
import { buildLog, Vocabulary } from "./log";
import { createModel, modelNames } from "./models";
import { parseGrades, parseJsonl, parseYandex } from "../io/click-log-parse";
import { keepKnownQueries } from "./split";

// PyClick 98e7e460's numbers on clicks-small (test/fixtures/clicks-small/README.md); every one within 1e-6.
const F = path.resolve(__dirname, "../../test/fixtures/clicks-small");
const read = (name: string) => fs.readFileSync(path.join(F, name), "utf8");
const expected = JSON.parse(read("expected.json"));
const train = parseJsonl(read("train.jsonl"));
const test = parseJsonl(read("test.jsonl"));
const grades = parseGrades(read("qrels.txt"));
const TOL = 1e-6;
// TCM and SDCM are checked on tcm-small (tcm-compat.test.ts): clicks-small has no tasks.
const referenced = modelNames.filter((name) => name in expected.models);

function expectAllClose(actual: unknown, wanted: unknown, where: string): void {
  if (typeof wanted === "number") {
    expect(typeof actual, where).toBe("number");
    expect(Math.abs((actual as number) - wanted), `${where}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(
      TOL,
    );
  } else if (Array.isArray(wanted)) {
    expect((actual as unknown[]).length, where).toBe(wanted.length);
    wanted.forEach((w, i) => expectAllClose((actual as unknown[])[i], w, `${where}[${i}]`));
  } else if (wanted && typeof wanted === "object") {
    for (const [k, w] of Object.entries(wanted))
      expectAllClose((actual as Record<string, unknown>)?.[k], w, `${where}.${k}`);
  } else expect(actual, where).toBe(wanted);
}

describe("click models in --compat pyclick mode reproduce PyClick on clicks-small", () => {
  let report: ClicksReport;
  beforeAll(() => {
    report = evaluateClickModels(train, test, {
      models: [...modelNames],
      mode: "pyclick",
      grades,
      pyclickNames: true,
    });
  }, 120_000);

  it("keeps the test sessions PyClick keeps", () => {
    expect(report.train.sessions).toBe(expected.data.trainSessions);
    expect(report.test.sessions).toBe(expected.data.testSessionsUsed);
    expect(report.test.dropped).toBe(expected.data.testSessionsDropped);
  });

  it.each(referenced)("%s: fitted parameters and every measure", (name) => {
    const m = report.models[name];
    const e = expected.models[name];
    const params = Object.fromEntries(Object.entries(e.params).filter(([k]) => !k.endsWith("_counts")));
    expectAllClose(m.params, params, `${name}.params`);
    expectAllClose(m.logLikelihood, e.LogLikelihood, `${name}.LogLikelihood`);
    expectAllClose(m.perplexity, e.Perplexity, `${name}.Perplexity`);
    expectAllClose(m.perplexityByRank, e.PerplexityAtRank, `${name}.PerplexityAtRank`);
    expectAllClose(m.perplexityCond, e.PerplexityCond, `${name}.PerplexityCond`);
    expectAllClose(m.perplexityCondByRank, e.PerplexityCondAtRank, `${name}.PerplexityCondAtRank`);
    expectAllClose(m.ctrPredictionRmse, e.CTRPrediction, `${name}.CTRPrediction`);
    expectAllClose(m.relevanceAuc, e.RelevancePrediction.auc, `${name}.auc`);
    expectAllClose(m.relevancePearsonR, e.RelevancePrediction.pearson_r, `${name}.pearson_r`);
    expectAllClose(m.rankingNdcg5, e.RankingPerformance, `${name}.RankingPerformance`);
  });

  it.each(referenced)("%s: click probabilities of the probed sessions", (name) => {
    const vocabulary = new Vocabulary();
    const trainLog = buildLog(train, vocabulary);
    const testLog = buildLog(keepKnownQueries(train, test).kept, vocabulary);
    const model = createModel(name, { mode: "pyclick" });
    model.train(trainLog);
    model.ensure(vocabulary.pairCount);
    const out = new Float64Array(10);
    for (const probe of expected.models[name].probes) {
      const s = testLog.ids.indexOf(probe.session);
      model.full(testLog, s, out);
      expectAllClose(Array.from(out), probe.full, `${name} ${probe.session} full`);
      model.conditional(testLog, s, out);
      expectAllClose(Array.from(out), probe.conditional, `${name} ${probe.session} conditional`);
    }
  });

  it("CM's relevance (PyClick raises) is α in textbook mode, giving the values noted beside the reference", () => {
    const cm = evaluateClickModels(train, test, { models: ["CM"], grades }).models.CM;
    const e = expected.models.CM.notPyClick_ifPredictRelevanceWereAttr;
    expectAllClose(cm.relevanceAuc, e.RelevancePrediction.auc, "CM auc");
    expectAllClose(cm.rankingNdcg5, e.RankingPerformance, "CM nDCG@5");
  });

  it("reads the Yandex files as the same sessions as the JSONL ones", () => {
    expect(parseYandex(read("train.yandex.tsv"))).toEqual(train);
    expect(parseYandex(read("test.yandex.tsv"))).toEqual(test);
  });
});
