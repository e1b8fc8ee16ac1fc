import fs from "node:fs";
import { once } from "node:events";
import type { Command } from "commander";
import { clickPageLine, forEachClickSession } from "../../../db/experiments/click-sessions";
import { getExperiment } from "../../../db/experiments/experiments";
import { evaluateSplit, type ClicksReport } from "../../clicks/evaluate";
import { addSession, emptyLog, Vocabulary, type ClickLog } from "../../clicks/log";
import { modelNames } from "../../clicks/models";
import { ClickFormatError, parseGrades, readLogInto, type LogFormat } from "../../io/click-log-parse";
import { splitLog } from "../../clicks/split";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { collect, readBytes, readText, unitInterval, wholeNumber } from "../options";
import { ciText, emit, type Cell } from "../output";
import { DEFAULT_B, DEFAULT_SEED } from "../../lib/defaults";
import { progressBar } from "../progress";

interface ClicksOptions {
  train?: string;
  test?: string;
  log?: string;
  testShare: number;
  seed?: string;
  format?: string;
  model: string[];
  compat?: string;
  iterations: number;
  maxRank: number;
  qrels?: string;
  bootstrap: number;
  json?: boolean;
}

/** How tasks are read and which of DCM/SDCM is PyClick's DCM (CLICK-MODELS.md §8). */
const TASKS_HELP = [
  "",
  'Tasks (TCM): sessions with the same JSONL "task" (a string) form one search task, in file order,',
  'which is time order (with a "time" field a task going back in time is refused). A session without',
  '"task", and every session of a Yandex log, is a task of its own. `clicks export` writes a task',
  "per convener and proposal.",
  "DCM and SDCM: SDCM is the dependent click model in closed form by counting (the user stops at the",
  "last click); DCM is fitted by EM. PyClick's DCM is the counting SDCM with initial counts (1, 2):",
  "with --compat pyclick both DCM and SDCM reproduce it.",
].join("\n");

export function registerClicks(program: Command) {
  const clicks = program
    .command("clicks")
    .description("fit click models (GCTR … TCM) on a click log and evaluate them on held-out sessions")
    .option("--train <file>", "training sessions (with --test)")
    .option("--test <file>", "test sessions (with --train)")
    .option("--log <file>", "one log, split into train and test by session")
    .option("--test-share <share>", "share of --log's sessions for test", unitInterval, 0.25)
    .option(
      "--seed <seed>",
      "split --log at random with this seed (default: the last sessions in file order are test, as PyClick); also seeds the intervals",
    )
    .option("--format <format>", "jsonl or yandex (default: from the file name; .gz allowed)")
    .option(
      "--model <name>",
      `a model; repeat for more (default: all of ${modelNames.join(" ")})`,
      collect,
      [],
    )
    .option("--compat <library>", "reproduce a library's numbers exactly: pyclick")
    .option("--iterations <n>", "EM iterations", wholeNumber(1), 50)
    .option("--max-rank <n>", "results per session kept", wholeNumber(1), 10)
    .option("--qrels <file>", "graded labels (qid iter docid grade) for relevance AUC and nDCG@5")
    .option(
      "--bootstrap <B>",
      "resamples of the measures' intervals, over test queries (0: none)",
      wholeNumber(0),
      DEFAULT_B,
    )
    .option("--json", "print JSON")
    .addHelpText("after", TASKS_HELP)
    .action(fitAndPrint);
  clicks
    .command("export")
    .description(
      "write an experiment's convener sessions as click-model JSONL (first impression, profiles opened)",
    )
    .requiredOption("--experiment <key>", "experiment key")
    .option("--out <file>", "write to this file (default: standard output)")
    .addHelpText(
      "after",
      "\n--max-rank <n> (given to `assay clicks`, default 10) cuts each session's results.",
    )
    .action(async (o: { experiment: string; out?: string }, command: Command) => {
      // --max-rank belongs to `assay clicks`, which reads it wherever it stands on the line.
      const { maxRank } = command.optsWithGlobals<ClicksOptions>();
      if (maxRank > 255) throw new CliError("--max-rank must be at most 255.", 2);
      await exportSessions(o.experiment, maxRank, o.out);
    });
}

/** `assay clicks`: reads the sessions, fits and evaluates each model, prints the table or JSON. */
async function fitAndPrint(o: ClicksOptions) {
  if (o.compat !== undefined && o.compat !== "pyclick")
    throw new CliError(`--compat knows only "pyclick", not "${o.compat}".`, 2);
  if (o.maxRank > 255) throw new CliError("--max-rank must be at most 255.", 2);
  const models = o.model.length ? o.model : [...modelNames];
  const unknown = models.filter((m) => !modelNames.some((n) => n.toLowerCase() === m.toLowerCase()));
  if (unknown.length)
    throw new CliError(`Unknown click model ${unknown.join(", ")}: choose from ${modelNames.join(", ")}.`, 2);
  const { train, test } = await readSessions(o);
  if (!train.size)
    throw new CliError("The training sessions are empty: give a log with at least one session.");
  if (!test.size) throw new CliError("The test sessions are empty: give --test or a larger --test-share.");
  const qrels = o.qrels ? await readText(o.qrels, "qrels") : undefined;
  const grades = qrels === undefined ? undefined : guard(() => parseGrades(qrels, o.qrels));
  let bar: ReturnType<typeof progressBar> | undefined;
  const report = evaluateSplit(train, test, {
    models,
    mode: o.compat === "pyclick" ? "pyclick" : "textbook",
    iterations: o.iterations,
    grades,
    // Over queries: a log has no conveners, and a query's sessions share its documents' parameters.
    intervals: o.bootstrap ? { B: o.bootstrap, seed: o.seed ?? DEFAULT_SEED } : undefined,
    onPhase: (model, phase) => {
      bar?.stop();
      bar = progressBar(`${model} ${phase}`);
      return (done, total) => bar!.update(done, total);
    },
  });
  bar?.stop();
  if (!report.test.sessions)
    throw new CliError("No test session's query occurs in the training sessions: nothing to evaluate.");
  const ci = o.bootstrap
    ? `ci95: 95% percentile bootstrap over test queries, B = ${o.bootstrap}, seed "${o.seed ?? DEFAULT_SEED}"`
    : "";
  print(report, o.json ? "json" : "table", ci);
}

/** Streams the experiment's sessions to `out` (or stdout), line by line, waiting when the stream is full. */
async function exportSessions(key: string, maxRank: number, out: string | undefined) {
  await withDatabase(async (db, sql) => {
    const experiment = await getExperiment(db, key);
    if (!experiment) throw new CliError(`There is no experiment ${key}.`, 2);
    const stream = out ? fs.createWriteStream(out) : process.stdout;
    const failed = once(stream, "error").then(([error]) => {
      throw new CliError(`Cannot write ${out ?? "standard output"}: ${(error as Error).message}.`);
    });
    failed.catch(() => {});
    const counts = await forEachClickSession(sql, experiment.id, maxRank, async (page) => {
      if (!stream.write(clickPageLine(page) + "\n")) await Promise.race([once(stream, "drain"), failed]);
    });
    if (out) await Promise.race([new Promise((resolve) => (stream as fs.WriteStream).end(resolve)), failed]);
    const skipped = counts.withoutImpression
      ? `; ${counts.withoutImpression} without an impression skipped`
      : "";
    console.error(`Exported ${counts.sessions} sessions of ${key}${out ? ` to ${out}` : ""}${skipped}.`);
  });
}

function formatOf(file: string, given: string | undefined): LogFormat {
  if (given === "jsonl" || given === "yandex") return given;
  if (given !== undefined) throw new CliError(`--format must be jsonl or yandex, not "${given}".`, 2);
  if (/\.jsonl?(\.gz)?$/i.test(file)) return "jsonl";
  if (/\.(tsv|txt)(\.gz)?$/i.test(file)) return "yandex";
  throw new CliError(
    `Cannot tell the format of ${file} from its name: give --format jsonl or --format yandex.`,
    2,
  );
}

async function readLog(
  file: string,
  format: string | undefined,
  what: string,
  vocabulary: Vocabulary,
  maxRank: number,
): Promise<ClickLog> {
  const kind = formatOf(file, format);
  const bytes = await readBytes(file, what);
  const log = emptyLog(vocabulary, 0, maxRank);
  guard(() => readLogInto(bytes, kind, file, (session) => addSession(log, session)));
  return log;
}

async function readSessions(o: ClicksOptions): Promise<{ train: ClickLog; test: ClickLog }> {
  const vocabulary = new Vocabulary();
  if (o.log) {
    if (o.train || o.test) throw new CliError("Give either --log, or --train and --test, not both.", 2);
    return splitLog(await readLog(o.log, o.format, "log", vocabulary, o.maxRank), o.testShare, o.seed);
  }
  if (!o.train || !o.test) throw new CliError("Give the sessions: --train F --test F, or --log F.", 2);
  const train = await readLog(o.train, o.format, "train", vocabulary, o.maxRank);
  return { train, test: await readLog(o.test, o.format, "test", vocabulary, o.maxRank) };
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ClickFormatError) throw new CliError(error.message, 2);
    throw error;
  }
}

function print(report: ClicksReport, format: "json" | "table", ci: string) {
  const json = {
    train: report.train,
    test: report.test,
    models: Object.fromEntries(
      Object.entries(report.models).map(([name, m]) => [
        name,
        {
          logLikelihood: m.logLikelihood,
          perplexity: m.perplexity,
          perplexityByRank: m.perplexityByRank,
          perplexityCond: m.perplexityCond,
          perplexityCondByRank: m.perplexityCondByRank,
          ctrPredictionRmse: m.ctrPredictionRmse,
          relevanceAuc: m.relevanceAuc,
          relevancePearsonR: m.relevancePearsonR,
          rankingNdcg5: m.rankingNdcg5,
          trainSeconds: m.trainSeconds,
          logLikelihoodCi: m.intervals?.logLikelihood ?? null,
          perplexityCi: m.intervals?.perplexity ?? null,
          perplexityByRankCi: m.intervals?.perplexityByRank ?? null,
          ctrPredictionRmseCi: m.intervals?.ctrPredictionRmse ?? null,
          relevanceAucCi: m.intervals?.relevanceAuc ?? null,
          rankingNdcg5Ci: m.intervals?.rankingNdcg5 ?? null,
          params: m.params,
        },
      ]),
    ),
  };
  const headers = [
    "model",
    "logLikelihood",
    "ci95",
    "perplexity",
    "ci95 ",
    "perplexityCond",
    "ctr@1 RMSE",
    "ci95  ",
    "relevance AUC",
    "ci95   ",
    "nDCG@5",
    "ci95    ",
    "train s",
  ];
  const rows: Cell[][] = Object.entries(report.models).map(([name, m]) => [
    name,
    m.logLikelihood,
    ciText(m.intervals?.logLikelihood),
    m.perplexity,
    ciText(m.intervals?.perplexity),
    m.perplexityCond,
    m.ctrPredictionRmse,
    ciText(m.intervals?.ctrPredictionRmse),
    m.relevanceAuc,
    ciText(m.intervals?.relevanceAuc),
    m.rankingNdcg5,
    ciText(m.intervals?.rankingNdcg5),
    Number(m.trainSeconds.toFixed(3)),
  ]);
  if (format === "table") {
    const dropped = report.test.dropped ? ` (${report.test.dropped} dropped: query not in train)` : "";
    console.log(`${report.train.sessions} train sessions, ${report.test.sessions} test sessions${dropped}`);
    if (ci) console.log(ci);
  }
  emit(format, json, headers, rows);
}
