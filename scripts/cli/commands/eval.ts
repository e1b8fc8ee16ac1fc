import type { Command } from "commander";
import { summarize } from "../../eval/evaluate";
import { evaluateRunFile } from "../../io/evaluate-files";
import { evaluationIntervals } from "../../eval/intervals";
import { defaultMeasureNames, MeasureError, parseMeasures, type Measure } from "../../eval/measures";
import { FormatError } from "../../eval/trec";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { CliError } from "../errors";
import { ciText, emit, formatOf, type Cell, type Format } from "../output";
import { assertReadable, collect, oneStdin, readText, unitInterval, wholeNumber } from "../options";
import { inputName } from "../../io/open-input";
import type { PairedTest } from "../../stats/paired";
import type { RunsOptions } from "./eval-runs";

const FORMATS = ["table", "json", "csv", "markdown", "latex"] as const;
type EvalFormat = (typeof FORMATS)[number];
const TESTS = ["t", "wilcoxon", "permutation"];

export function registerEval(program: Command) {
  program
    .command("eval")
    .description("evaluate a TREC run against TREC qrels, as trec_eval does")
    .requiredOption("--qrels <file>", "judgements: qid iter docid rel (`-`: standard input; *.gz: gzipped)")
    .requiredOption(
      "--run <file>",
      "ranked lists: qid Q0 docid rank score tag (`-`, *.gz too); repeat to compare runs",
      (v: string, runs?: string[]) => [...(runs ?? []), v],
    )
    .option(
      "-m, --measure <name>",
      `a measure, ir_measures' or trec_eval's name (P.5,10, all_trec); repeat for more (default: ${defaultMeasureNames.join(" ")})`,
      collect,
      [],
    )
    .option(
      "-l, --level <rel>",
      "lowest label that counts as relevant, for every measure with rel (trec_eval -l)",
      wholeNumber(0),
    )
    .option("-J, --judged-only", "drop items without a label from every list first (trec_eval -J)")
    .option(
      "-M, --max-retrieved <n>",
      "only the top n items of each list count (trec_eval -M)",
      wholeNumber(1),
    )
    .option("--complete", "average over every judged query, a missing list scoring 0 (trec_eval -c)")
    .option("--per-query", "also print each query's values")
    .option("--catalog <file>", "candidate ids, one per line, for Coverage@K")
    .option("--ci", "bootstrap 95% confidence intervals over queries")
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "bootstrap seed", DEFAULT_SEED)
    .option(
      "--test <test>",
      "several runs: the paired test over queries, t, wilcoxon or permutation (default t)",
    )
    .option(
      "--alpha <p>",
      "several runs: the significance level of the marks, after Holm's adjustment (default 0.05)",
      unitInterval,
    )
    .option("--format <format>", `output: ${FORMATS.join(", ")} (--json and --csv are short for two of them)`)
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(evaluate);
}

type EvalOptions = Omit<RunsOptions, "run" | "measures"> & {
  run: string[];
  measure: string[];
  level?: number;
  judgedOnly?: boolean;
  maxRetrieved?: number;
  perQuery?: boolean;
  catalog?: string;
  ci?: boolean;
  bootstrap: number;
  format?: string;
  json?: boolean;
  csv?: boolean;
};

/** Checks the flags and files, then evaluates one run here or several (or a paper format) in eval-runs. */
async function evaluate(options: EvalOptions) {
  const format = formatOption(options);
  const defaults = { rel: options.level, judgedOnly: options.judgedOnly, depth: options.maxRetrieved };
  const measures = guard(() =>
    parseMeasures(options.measure.length ? options.measure : defaultMeasureNames, defaults),
  );
  const inputs = [
    { file: options.qrels, what: "qrels" },
    ...options.run.map((file) => ({ file, what: "run" })),
  ];
  oneStdin([...inputs, ...(options.catalog ? [{ file: options.catalog, what: "catalog" }] : [])]);
  // `-` is standard input, read later (readInput).
  for (const { file, what } of inputs) if (file !== "-") await assertReadable(file, what);
  if (options.test !== undefined && !TESTS.includes(options.test))
    throw new CliError(`--test must be ${TESTS.join(", ")}, not "${options.test}".`, 2);
  const coverage = measures.find((m) => m.kind === "Coverage");
  if (coverage && !options.catalog)
    throw new CliError(`${coverage.name} needs --catalog with the candidate ids.`, 2);
  const catalog = options.catalog
    ? new Set((await readText(options.catalog, "catalog")).split(/\s+/).filter(Boolean))
    : undefined;
  if (options.run.length > 1 || format === "markdown" || format === "latex") {
    if (options.perQuery || options.ci)
      throw new CliError(
        `--${options.perQuery ? "per-query" : "ci"} prints one run's values: give a single --run.`,
        2,
      );
    // Loaded only here: the statistics are no part of evaluating one run.
    const { evaluateRuns } = await import("./eval-runs");
    return evaluateRuns({
      ...options,
      measures,
      format,
      test: (options.test ?? "t") as PairedTest,
      catalogIds: catalog,
    });
  }
  if (options.test !== undefined || options.alpha !== undefined)
    throw new CliError("--test and --alpha compare several runs: give two or more --run.", 2);
  await evaluateOneRun({ ...options, run: options.run[0] }, measures, format, catalog);
}

async function evaluateOneRun(
  o: Omit<EvalOptions, "run"> & { run: string },
  measures: Measure[],
  format: Format,
  catalog: Set<string> | undefined,
) {
  const evaluation = await guard(() =>
    evaluateRunFile(o.qrels, o.run, measures, { complete: o.complete, catalog }),
  );
  if (evaluation.qids.length === 0)
    throw new CliError(
      `No query has both a list in ${inputName(o.run)} and judgements in ${inputName(o.qrels)}: check that the query ids match.`,
    );
  const summary = summarize(evaluation, { perQuery: o.perQuery });
  const intervals = o.ci ? evaluationIntervals(evaluation, { B: o.bootstrap, seed: o.seed }) : undefined;
  const json = {
    queries: summary.queries,
    aggregate: summary.aggregate,
    ...(intervals ? { ci: intervals, bootstrap: { B: o.bootstrap, seed: o.seed, level: 0.95 } } : {}),
    ...(Object.keys(summary.missing).length ? { missing: summary.missing } : {}),
    ...(o.perQuery ? { perQuery: summary.perQuery } : {}),
  };
  const headers = ["measure", "query", "value", ...(intervals ? ["ci95"] : [])];
  const rows: Cell[][] = measures.map((m) => [
    m.name,
    "all",
    summary.aggregate[m.name],
    ...(intervals ? [ciText(intervals[m.name])] : []),
  ]);
  if (o.perQuery) {
    for (const [qid, values] of Object.entries(summary.perQuery))
      for (const m of measures)
        if (m.name in values) rows.push([m.name, qid, values[m.name], ...(intervals ? [""] : [])]);
  }
  if (format === "table")
    console.log(`${summary.queries} queries${o.complete ? " (complete: every judged query)" : ""}`);
  emit(format, json, headers, rows);
}

/** Turns library input errors into one-sentence CLI errors. */
/** The output format: --format, or --json / --csv as before; two different ones are refused. */
function formatOption(o: { format?: string; json?: boolean; csv?: boolean }): EvalFormat {
  const legacy = formatOf(o);
  if (o.format === undefined) return legacy;
  if (!(FORMATS as readonly string[]).includes(o.format))
    throw new CliError(`--format must be ${FORMATS.join(", ")}, not "${o.format}".`, 2);
  if (legacy !== "table" && legacy !== o.format)
    throw new CliError(`--format ${o.format} and --${legacy} ask for two formats: choose one.`, 2);
  return o.format as EvalFormat;
}

export function guard<T>(work: () => T): T {
  const wrap = (error: unknown): never => {
    if (error instanceof MeasureError || error instanceof FormatError) throw new CliError(error.message, 2);
    if (error instanceof Error && !(error instanceof CliError)) throw new CliError(error.message);
    throw error;
  };
  try {
    const result = work();
    return (result instanceof Promise ? result.catch(wrap) : result) as T;
  } catch (error) {
    return wrap(error);
  }
}
