import { evaluateClickModels, type ClicksReport } from "./evaluate";
import { modelNames } from "./models";
import { parseYandex } from "../io/click-log-parse";
import {
  expectAllClose,
  expectMeasures,
  expectParams,
  expectProbes,
  pyclickFixture,
} from "../../test/pyclick-compat";

// PyClick 98e7e460's numbers on clicks-small (test/fixtures/clicks-small/README.md); every one within 1e-6.
const fixture = pyclickFixture("clicks-small");
const { read, expected, train, test, grades } = fixture;
// TCM and SDCM are checked on tcm-small (tcm-compat.test.ts): clicks-small has no tasks.
const referenced = modelNames.filter((name) => name in expected.models);

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
    expectParams(report, name, expected.models[name]);
    expectMeasures(report, name, expected.models[name]);
  });

  it.each(referenced)("%s: click probabilities of the probed sessions", (name) => {
    expectProbes(fixture, name);
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
