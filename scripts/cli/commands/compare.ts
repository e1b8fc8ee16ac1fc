import path from "node:path";
import type { Command } from "commander";
import { compareSystems } from "../../eval/compare";
import { evaluateQueries } from "../../eval/evaluate";
import { parseMeasure } from "../../eval/measures";
import { parseQrels, parseRun, runQueries } from "../../eval/trec";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { CliError } from "../errors";
import { ciText, emit, formatOf, table, type Cell, type Format } from "../output";
import { collect, oneStdin, pairedTest, readBytes, readText, wholeNumber } from "../options";
import { guard } from "./eval";

export function registerCompare(program: Command) {
  program
    .command("compare")
    .description(
      "paired comparison of runs on the judged queries (complete mode), Holm-adjusted for more than two",
    )
    .requiredOption("--qrels <file>", "judgements: qid iter docid rel")
    .option("--run <file>", "a run; give two or more", collect, [])
    .requiredOption("--measure <name>", "the measure to compare, e.g. nDCG@10")
    .option("--test <test>", "t, wilcoxon or permutation", "t")
    .option(
      "--bootstrap <B>",
      "bootstrap resamples for the CIs (and Monte Carlo permutations)",
      wholeNumber(1),
      DEFAULT_B,
    )
    .option("--seed <seed>", "seed", DEFAULT_SEED)
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(compare);
}

interface CompareOptions {
  qrels: string;
  run: string[];
  measure: string;
  test: string;
  bootstrap: number;
  seed: string;
  json?: boolean;
  csv?: boolean;
}

async function compare(o: CompareOptions) {
  const format = formatOf(o);
  const test = pairedTest(o.test);
  if (o.run.length < 2) throw new CliError("Give at least two runs: --run A --run B.", 2);
  oneStdin([{ file: o.qrels, what: "qrels" }, ...o.run.map((file) => ({ file, what: "run" }))]);
  const measure = guard(() => parseMeasure(o.measure));
  if (measure.kind === "Coverage" || measure.kind === "HLU-ratio")
    throw new CliError(`${measure.name} is not a per-query measure; compare needs one such as nDCG@10.`, 2);
  const qrels = await guard(async () => parseQrels(await readText(o.qrels, "qrels"), o.qrels));
  const names = o.run.map((r) => path.basename(r));
  const systems = await Promise.all(
    o.run.map(async (file, i) => {
      const run = await guard(async () => parseRun(await readBytes(file, "run"), file));
      const queries = runQueries(run, qrels, { complete: true });
      return {
        name: names.filter((n) => n === names[i]).length > 1 ? file : names[i],
        values: evaluateQueries(queries, [measure]).columns[0].values,
      };
    }),
  );
  const result = guard(() => compareSystems(systems, test, { B: o.bootstrap, seed: o.seed }));
  printComparison(format, measure.name, result);
}

function printComparison(format: Format, measure: string, result: ReturnType<typeof compareSystems>) {
  const json = { measure, ...result };
  if (format === "table") {
    console.log(`${measure} on ${result.queries} judged queries (complete mode)\n`);
    console.log(
      table(
        ["system", "mean", "ci95", "queries"],
        result.systems.map((s) => [s.name, s.mean, ciText(s.ci), s.n]),
      ),
    );
    console.log("");
  }
  const headers = [
    "a",
    "b",
    "queries",
    "mean a",
    "mean b",
    "b − a",
    "ci95",
    "statistic",
    "p",
    ...(result.holm ? ["p (Holm)"] : []),
    "test",
  ];
  const rows: Cell[][] = result.pairs.map((p) => [
    p.a,
    p.b,
    p.n,
    p.meanA,
    p.meanB,
    p.difference,
    ciText(p.ci),
    p.statistic,
    p.pValue,
    ...(result.holm ? [p.pAdjusted] : []),
    p.method,
  ]);
  emit(format, json, headers, rows);
}
