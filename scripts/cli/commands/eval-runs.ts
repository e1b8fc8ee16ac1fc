import path from "node:path";
import { compareRuns, RUN_LETTERS, type NamedEvaluation } from "../../eval/compare-runs";
import { evaluateRunFile } from "../../io/evaluate-files";
import type { Measure } from "../../eval/measures";
import { inputName } from "../../io/open-input";
import type { PairedTest } from "../../stats/paired";
import { CliError } from "../errors";
import { runsCsv, runsLatex, runsMarkdown, runsTable } from "../runs-report";
import { guard } from "./eval";

export interface RunsOptions {
  qrels: string;
  run: string[];
  measures: Measure[];
  complete?: boolean;
  catalog?: string;
  seed: string;
  bootstrap: number;
  test: PairedTest;
  alpha?: number;
  format: "table" | "json" | "csv" | "markdown" | "latex";
}

/**
 * `assay eval` with several runs (or a table format for one): each run evaluated as a single run is,
 * then a table of runs × measures with ranx's marks (compareRuns), in the format asked for.
 */
export async function evaluateRuns(o: RunsOptions & { catalogIds?: ReadonlySet<string> }) {
  if (o.run.length > RUN_LETTERS.length)
    throw new CliError(
      `At most ${RUN_LETTERS.length} runs can be compared at once (one letter each), not ${o.run.length}.`,
      2,
    );
  const names = runNames(o.run);
  const evaluations: NamedEvaluation[] = [];
  for (const [i, file] of o.run.entries()) {
    const evaluation = await guard(() =>
      evaluateRunFile(o.qrels, file, o.measures, { complete: o.complete, catalog: o.catalogIds }),
    );
    if (evaluation.qids.length === 0)
      throw new CliError(
        `No query has both a list in ${inputName(file)} and judgements in ${inputName(o.qrels)}: check that the query ids match.`,
      );
    evaluations.push({ name: names[i], evaluation });
  }
  const report = compareRuns(evaluations, { test: o.test, alpha: o.alpha, B: o.bootstrap, seed: o.seed });
  if (o.format === "json") {
    const files = new Map(names.map((n, i) => [n, inputName(o.run[i])]));
    const json = {
      qrels: inputName(o.qrels),
      complete: Boolean(o.complete),
      test: report.test,
      alpha: report.alpha,
      adjustment: "holm",
      sameQueries: report.sameQueries,
      measures: report.measures,
      untested: report.untested,
      lowerIsBetter: report.lowerIsBetter,
      runs: report.runs.map((r) => ({
        letter: r.letter,
        name: r.name,
        file: files.get(r.name),
        queries: r.queries,
        means: r.means,
        betterThan: r.better,
      })),
      pairs: report.pairs,
    };
    console.log(JSON.stringify(json, null, 2));
  } else if (o.format === "csv") console.log(runsCsv(report));
  else if (o.format === "markdown") console.log(runsMarkdown(report));
  else if (o.format === "latex") console.log(runsLatex(report));
  else console.log(runsTable(report));
}

/** Each run's name: its file's base name, or the path given where two base names are the same. */
function runNames(files: readonly string[]): string[] {
  const base = files.map((f) => (f === "-" ? "stdin" : path.basename(f)));
  const named = base.map((b, i) => (base.filter((x) => x === b).length > 1 ? inputName(files[i]) : b));
  // The same file given twice: numbered, so that each pair still names two runs.
  return named.map((n, i) =>
    named.filter((x) => x === n).length > 1
      ? `${n} (${named.slice(0, i + 1).filter((x) => x === n).length})`
      : n,
  );
}
