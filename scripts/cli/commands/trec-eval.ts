import type { Command } from "commander";
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { CliError } from "../errors";
import { parseTrecEvalArgs, TrecUsageError, trecEvalUsage } from "../../trec-eval/args";
import { TrecInputError, trecEval } from "../../trec-eval/engine";
import { TrecMeasureError, trecMeasureNames } from "../../trec-eval/registry";
import { trecEvalFiles } from "../../io/trec-eval-files";

/**
 * `assay trec_eval`: trec_eval's own command line and output, byte for byte (9.0.8; 10.0 with --v10),
 * for scripts written against trec_eval. Its options are read as trec_eval reads them, not by commander.
 */
export function registerTrecEval(program: Command) {
  program
    .command("trec_eval")
    .description(
      "print exactly what trec_eval 9.0.8 prints (--v10: 10.0): -q -c -n -l N -m M -J -M N QRELS RUN",
    )
    .usage("[-q] [-c] [-n] [-l N] [-m measure[.params]]... [-J] [-M N] [--v10] QRELS RUN")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[args...]")
    .action(async (_args: string[], _options: unknown, command: Command) => {
      const raw = command.parent!.args.slice(1);
      if (raw.includes("-h") || raw.includes("--help")) {
        process.stdout.write(
          `${trecEvalUsage}\n\nPrints what trec_eval 9.0.8 prints (--v10: 10.0), byte for byte.\nMeasures (-m): ${trecMeasureNames.join(", ")}; nicknames official, set, all_trec.\n`,
        );
        return;
      }
      let parsed: ReturnType<typeof parseTrecEvalArgs>;
      try {
        parsed = parseTrecEvalArgs(raw);
      } catch (error) {
        if (error instanceof TrecUsageError)
          throw new CliError(`trec_eval: ${error.message}\n${trecEvalUsage}`, 2);
        throw error;
      }
      const read = async (file: string, what: string) => {
        try {
          return await readFile(file, "utf8");
        } catch {
          throw new CliError(`trec_eval: cannot read the ${what} file ${file}`, 2);
        }
      };
      const sources = { qrels: parsed.qrels, run: parsed.run };
      try {
        // Regular files go through the streamed reader; anything it leaves (null), and pipes, to the text one.
        const streamed =
          isFile(parsed.qrels) && isFile(parsed.run)
            ? trecEvalFiles(parsed.qrels, parsed.run, parsed.options, sources)
            : null;
        process.stdout.write(
          streamed ??
            trecEval(
              await read(parsed.qrels, "qrels"),
              await read(parsed.run, "run"),
              parsed.options,
              sources,
            ),
        );
      } catch (error) {
        if (error instanceof TrecMeasureError || error instanceof TrecInputError)
          throw new CliError(`trec_eval: ${error.message}`, 2);
        throw error;
      }
    });
}

function isFile(file: string) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
