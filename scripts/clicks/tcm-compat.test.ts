import { evaluateClickModels, type ClicksReport } from "./evaluate";
import { buildLog, Vocabulary } from "./log";
import { createModel } from "./models";
import { ClickFormatError, parseJsonl } from "../io/click-log-parse";
import {
  expectAllClose,
  expectMeasures,
  expectParams,
  expectProbes,
  pyclickFixture,
} from "../../test/pyclick-compat";

// PyClick 98e7e460's TCM and DCM on tcm-small, a task-structured log (test/fixtures/tcm-small/README.md),
// and SDCM's closed-form counts computed beside them; every value within 1e-6.
const fixture = pyclickFixture("tcm-small");
const { expected, train, test, grades } = fixture;

describe("TCM, DCM and SDCM in --compat pyclick mode reproduce PyClick on tcm-small", () => {
  let report: ClicksReport;
  beforeAll(() => {
    report = evaluateClickModels(train, test, {
      models: ["TCM", "DCM", "SDCM"],
      mode: "pyclick",
      grades,
      pyclickNames: true,
    });
  });

  it("reads the tasks: 1,107 train sessions, 122 lines without a task, 365 test sessions kept", () => {
    expect(report.train.sessions).toBe(expected.data.trainSessions);
    expect(report.test.sessions).toBe(expected.data.testSessionsUsed);
    const withoutTask = [...train, ...test].filter((s) => s.task === undefined).length;
    expect(withoutTask).toBe(expected.data.sessionsWithoutTaskField);
  });

  it.each(["TCM", "DCM"])("%s: fitted parameters and every measure", (name) => {
    expectParams(report, name, expected.models[name]);
    expectMeasures(report, name, expected.models[name]);
  });

  it("SDCM --compat pyclick is PyClick's DCM (the counting estimator with initial counts 1, 2)", () => {
    const { attr, cont } = expected.SDCM.withInitialCounts;
    expectAllClose(report.models.SDCM.params, { attr, cont }, "SDCM.params");
    expectMeasures(report, "SDCM", expected.models.DCM);
  });

  it.each(["TCM", "DCM"])("%s: click probabilities of the probed sessions", (name) => {
    expectProbes(fixture, name);
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
