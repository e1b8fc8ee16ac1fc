import fs from "node:fs";
import path from "node:path";
import type { ClicksReport } from "../scripts/clicks/evaluate";
import { buildLog, Vocabulary } from "../scripts/clicks/log";
import { createModel } from "../scripts/clicks/models";
import { parseGrades, parseJsonl } from "../scripts/io/click-log-parse";
import { keepKnownQueries } from "../scripts/clicks/split";

/** PyClick's values are matched to this absolute tolerance everywhere (clicks-small, tcm-small). */
const TOL = 1e-6;

/** A PyClick reference set of test/fixtures: its train/test logs, grades and expected.json. */
export function pyclickFixture(name: string) {
  const dir = path.resolve(__dirname, "fixtures", name);
  const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
  return {
    read,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reference JSON as read
    expected: JSON.parse(read("expected.json")) as any,
    train: parseJsonl(read("train.jsonl")),
    test: parseJsonl(read("test.jsonl")),
    grades: parseGrades(read("qrels.txt")),
  };
}

/** Every number in `wanted` (nested arrays and objects) within TOL of the same place in `actual`. */
export function expectAllClose(actual: unknown, wanted: unknown, where: string): void {
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

/** A model's fitted parameters (PyClick's, without its `_counts` bookkeeping) within TOL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reference JSON as read
export function expectParams(report: ClicksReport, name: string, e: any): void {
  const params = Object.fromEntries(Object.entries(e.params).filter(([k]) => !k.endsWith("_counts")));
  expectAllClose(report.models[name].params, params, `${name}.params`);
}

/** Every evaluation criterion PyClick reports for one model, within TOL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reference JSON as read
export function expectMeasures(report: ClicksReport, name: string, e: any): void {
  const m = report.models[name];
  expectAllClose(m.logLikelihood, e.LogLikelihood, `${name}.LogLikelihood`);
  expectAllClose(m.perplexity, e.Perplexity, `${name}.Perplexity`);
  expectAllClose(m.perplexityByRank, e.PerplexityAtRank, `${name}.PerplexityAtRank`);
  expectAllClose(m.perplexityCond, e.PerplexityCond, `${name}.PerplexityCond`);
  expectAllClose(m.perplexityCondByRank, e.PerplexityCondAtRank, `${name}.PerplexityCondAtRank`);
  expectAllClose(m.ctrPredictionRmse, e.CTRPrediction, `${name}.CTRPrediction`);
  expectAllClose(m.relevanceAuc, e.RelevancePrediction.auc, `${name}.auc`);
  expectAllClose(m.relevancePearsonR, e.RelevancePrediction.pearson_r, `${name}.pearson_r`);
  expectAllClose(m.rankingNdcg5, e.RankingPerformance, `${name}.RankingPerformance`);
}

/** The full and conditional click probabilities of the reference's probed test sessions, within TOL. */
export function expectProbes(fixture: ReturnType<typeof pyclickFixture>, name: string): void {
  const vocabulary = new Vocabulary();
  const trainLog = buildLog(fixture.train, vocabulary);
  const testLog = buildLog(keepKnownQueries(fixture.train, fixture.test).kept, vocabulary);
  const model = createModel(name, { mode: "pyclick" });
  model.train(trainLog);
  model.ensure(vocabulary.pairCount);
  const out = new Float64Array(10);
  for (const probe of fixture.expected.models[name].probes) {
    const s = testLog.ids.indexOf(probe.session);
    model.full(testLog, s, out);
    expectAllClose(Array.from(out), probe.full, `${name} ${probe.session} full`);
    model.conditional(testLog, s, out);
    expectAllClose(Array.from(out), probe.conditional, `${name} ${probe.session} conditional`);
  }
}
