import type { TrecEvalOptions } from "./engine";

export class TrecUsageError extends Error {}

export const trecEvalUsage =
  "usage: assay trec_eval [-q] [-c] [-n] [-l N] [-m measure[.params]]... [-J] [-M N] [-N N] [--v10] QRELS RUN";

const withValue = new Set(["m", "l", "M", "N"]);
const longNames: Record<string, string> = {
  query_eval_wanted: "q",
  measure: "m",
  complete_rel_info_wanted: "c",
  level_for_rel: "l",
  nosummary: "n",
  Judged_docs_only: "J",
  Number_docs_in_coll: "N",
  Max_retrieved_per_topic: "M",
};

/**
 * trec_eval's command line as getopt reads it: `-q -c`, `-qc`, `-M100` or `-M 100`, `-mP.5,10`,
 * trec_eval's long names (`--level_for_rel 2`), and `--v10`. Returns the options and the two files.
 */
export function parseTrecEvalArgs(args: string[]): { options: TrecEvalOptions; qrels: string; run: string } {
  const options: TrecEvalOptions = { measures: [] };
  const files: string[] = [];
  const integer = (flag: string, value: string) => {
    if (!/^[+-]?\d+$/.test(value)) throw new TrecUsageError(`-${flag} takes a whole number, not "${value}"`);
    return Number(value);
  };
  const apply = (flag: string, value?: string) => {
    if (flag === "q") options.perQuery = true;
    else if (flag === "c") options.complete = true;
    else if (flag === "n") options.noSummary = true;
    else if (flag === "J") options.judgedOnly = true;
    else if (flag === "m") options.measures!.push(value!);
    else if (flag === "l") options.relevanceLevel = integer(flag, value!);
    else if (flag === "M") options.maxRetrieved = integer(flag, value!);
    else if (flag === "N") options.numDocsInColl = integer(flag, value!);
    else throw new TrecUsageError(`unknown option -${flag}`);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg === "--v10") options.v10 = true;
    else if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s);
      const flag = longNames[name];
      if (!flag) throw new TrecUsageError(`unknown option ${arg}`);
      if (withValue.has(flag)) {
        const value = inline ?? args[++i];
        if (value === undefined) throw new TrecUsageError(`${arg} needs a value`);
        apply(flag, value);
      } else apply(flag);
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j];
        if (withValue.has(flag)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) throw new TrecUsageError(`-${flag} needs a value`);
          apply(flag, value);
          break;
        }
        apply(flag);
      }
    } else files.push(arg);
  }
  if (files.length !== 2)
    throw new TrecUsageError(
      `expected the qrels file and the run file, got ${files.length} file${files.length === 1 ? "" : "s"}`,
    );
  return { options, qrels: files[0], run: files[1] };
}
