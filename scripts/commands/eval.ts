import type { Command } from "commander";
import { summarize } from "../metrics/evaluate";
import { evaluateRunFile } from "../metrics/evaluate-files";
import { evaluationIntervals } from "../metrics/intervals";
import { defaultMeasureNames, MeasureError, parseMeasures } from "../metrics/measures";
import { FormatError } from "../metrics/trec";
import { DEFAULT_B } from "../stats/bootstrap";
import { CliError } from "../cli/errors";
import { ciText, emit, formatOf, type Cell } from "../cli/output";
import { assertReadable, collect, readText, wholeNumber } from "../cli/options";

export function registerEval(program: Command) {
  program
    .command("eval")
    .description("evaluate a TREC run against TREC qrels, as trec_eval does")
    .requiredOption("--qrels <file>", "judgements: qid iter docid rel")
    .requiredOption("--run <file>", "ranked lists: qid Q0 docid rank score tag")
    .option("-m, --measure <name>", `a measure, ir_measures' or trec_eval's name (P.5,10, all_trec); repeat for more (default: ${defaultMeasureNames.join(" ")})`, collect, [])
    .option("-l, --level <rel>", "lowest label that counts as relevant, for every measure with rel (trec_eval -l)", wholeNumber(0))
    .option("-J, --judged-only", "drop items without a label from every list first (trec_eval -J)")
    .option("-M, --max-retrieved <n>", "only the top n items of each list count (trec_eval -M)", wholeNumber(1))
    .option("--complete", "average over every judged query, a missing list scoring 0 (trec_eval -c)")
    .option("--per-query", "also print each query's values")
    .option("--catalog <file>", "candidate ids, one per line, for Coverage@K")
    .option("--ci", "bootstrap 95% confidence intervals over queries")
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "bootstrap seed", "assay")
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(async (o: { qrels: string; run: string; measure: string[]; level?: number; judgedOnly?: boolean; maxRetrieved?: number; complete?: boolean; perQuery?: boolean; catalog?: string; ci?: boolean; bootstrap: number; seed: string; json?: boolean; csv?: boolean }) => {
      const format = formatOf(o);
      const defaults = { rel: o.level, judgedOnly: o.judgedOnly, depth: o.maxRetrieved };
      const measures = guard(() => parseMeasures(o.measure.length ? o.measure : defaultMeasureNames, defaults));
      await assertReadable(o.qrels, "qrels");
      await assertReadable(o.run, "run");
      const catalog = o.catalog ? new Set((await readText(o.catalog, "catalog")).split(/\s+/).filter(Boolean)) : undefined;
      const coverage = measures.find((m) => m.kind === "Coverage");
      if (coverage && !catalog) throw new CliError(`${coverage.name} needs --catalog with the candidate ids.`, 2);
      const evaluation = await guard(() => evaluateRunFile(o.qrels, o.run, measures, { complete: o.complete, catalog }));
      if (evaluation.qids.length === 0) throw new CliError(`No query has both a list in ${o.run} and judgements in ${o.qrels}: check that the query ids match.`);
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
      const rows: Cell[][] = measures.map((m) => [m.name, "all", summary.aggregate[m.name], ...(intervals ? [ciText(intervals[m.name])] : [])]);
      if (o.perQuery) {
        for (const [qid, values] of Object.entries(summary.perQuery)) for (const m of measures) if (m.name in values) rows.push([m.name, qid, values[m.name], ...(intervals ? [""] : [])]);
      }
      if (format === "table") console.log(`${summary.queries} queries${o.complete ? " (complete: every judged query)" : ""}`);
      emit(format, json, headers, rows);
    });
}

/** Turns library input errors into one-sentence CLI errors. */
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
