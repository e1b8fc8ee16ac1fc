import fs from "node:fs";
import path from "node:path";
import { evaluateClickModels, type ClicksReport } from "./evaluate";
import { buildLog, Vocabulary } from "./log";
import { createModel } from "./models";
import { ClickFormatError, parseGrades, parseJsonl } from "../io/click-log-parse";
import { keepKnownQueries } from "./split";

// PyClick 98e7e460's TCM and DCM on tcm-small, a task-structured log (test/fixtures/tcm-small/README.md),
// and SDCM's closed-form counts computed beside them; every value within 1e-6.
const F = path.resolve(__dirname, "../../test/fixtures/tcm-small");
const read = (name: string) => fs.readFileSync(path.join(F, name), "utf8");
const expected = JSON.parse(read("expected.json"));
const train = parseJsonl(read("train.jsonl"));
const test = parseJsonl(read("test.jsonl"));
const grades = parseGrades(read("qrels.txt"));
const TOL = 1e-6;

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reference JSON as read
function expectMeasures(report: ClicksReport, name: string, e: any) {
  const m = report.models[name];
  const rel = e.RelevancePrediction;
  expectAllClose(m.logLikelihood, e.LogLikelihood, `${name}.LogLikelihood`);
  expectAllClose(m.perplexity, e.Perplexity, `${name}.Perplexity`);
  expectAllClose(m.perplexityByRank, e.PerplexityAtRank, `${name}.PerplexityAtRank`);
  expectAllClose(m.perplexityCond, e.PerplexityCond, `${name}.PerplexityCond`);
  expectAllClose(m.perplexityCondByRank, e.PerplexityCondAtRank, `${name}.PerplexityCondAtRank`);
  expectAllClose(m.ctrPredictionRmse, e.CTRPrediction, `${name}.CTRPrediction`);
  expectAllClose(m.relevanceAuc, rel.auc, `${name}.auc`);
  expectAllClose(m.relevancePearsonR, rel.pearson_r, `${name}.pearson_r`);
  expectAllClose(m.rankingNdcg5, e.RankingPerformance, `${name}.RankingPerformance`);
}

describe("TCM, DCM and SDCM in --compat pyclick mode reproduce PyClick on tcm-small", () => {
  let report: ClicksReport;
  beforeAll(() => {
    report = evaluateClickModels(train, test, {
      models: ["TCM", "DCM", "SDCM"],
      mode: "pyclick",
      grades,
      pyclickNames: true,
    });
  }, 60_000);

  it("reads the tasks: 1,107 train sessions, 122 lines without a task, 365 test sessions kept", () => {
    expect(report.train.sessions).toBe(expected.data.trainSessions);
    expect(report.test.sessions).toBe(expected.data.testSessionsUsed);
    const withoutTask = [...train, ...test].filter((s) => s.task === undefined).length;
    expect(withoutTask).toBe(expected.data.sessionsWithoutTaskField);
  });

  it.each(["TCM", "DCM"])("%s: fitted parameters and every measure", (name) => {
    const e = expected.models[name];
    const params = Object.fromEntries(Object.entries(e.params).filter(([k]) => !k.endsWith("_counts")));
    expectAllClose(report.models[name].params, params, `${name}.params`);
    expectMeasures(report, name, e);
  });

  it("SDCM --compat pyclick is PyClick's DCM (the counting estimator with initial counts 1, 2)", () => {
    const { attr, cont } = expected.SDCM.withInitialCounts;
    expectAllClose(report.models.SDCM.params, { attr, cont }, "SDCM.params");
    expectMeasures(report, "SDCM", expected.models.DCM);
  });

  it.each(["TCM", "DCM"])("%s: click probabilities of the probed sessions", (name) => {
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
});

describe("SDCM in textbook mode: the closed-form ratios", () => {
  it("gives the plain counts' ratios, and 0.5 where nothing was counted", () => {
    const vocabulary = new Vocabulary();
    const model = createModel("SDCM");
    model.train(buildLog(train, vocabulary));
    const values = model.pyclickValues(vocabulary) as {
      attr: Record<string, Record<string, number>>;
      cont: number[];
    };
    const { attr, cont } = expected.SDCM.params as {
      attr: Record<string, Record<string, number | null>>;
      cont: number[];
    };
    expectAllClose(values.cont, cont, "SDCM.cont");
    let undefinedPairs = 0;
    for (const [q, docs] of Object.entries(attr))
      for (const [d, v] of Object.entries(docs)) {
        if (v === null) undefinedPairs++;
        expectAllClose(values.attr[q][d], v ?? 0.5, `SDCM.attr.${q}.${d}`);
      }
    expect(undefinedPairs).toBe(expected.SDCM.undefined.attrPairs);
  });
});

describe("bad task input names the line", () => {
  const line = (o: object) => JSON.stringify({ session: "s", query: "q", results: ["a"], clicks: [0], ...o });
  it("a task that is not a string", () => {
    expect(() => parseJsonl([line({}), line({ task: 7 })].join("\n"), "log.jsonl")).toThrow(
      new ClickFormatError('log.jsonl line 2: "task" must be a non-empty string (the task\'s id), not 7.'),
    );
  });
  it("a task whose sessions go back in time", () => {
    const text = [line({ task: "t", time: 20 }), line({ task: "u", time: 5 }), line({ task: "t", time: 10 })];
    expect(() => parseJsonl(text.join("\n"), "log.jsonl")).toThrow(
      /log.jsonl line 3: task "t" goes back in time \(line 1/,
    );
    expect(parseJsonl(text.slice(0, 2).join("\n")).map((s) => s.task)).toEqual(["t", "u"]);
  });
});
