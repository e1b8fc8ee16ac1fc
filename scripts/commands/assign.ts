import type { Command } from "commander";
import { assignUnit, validateWeights } from "../stats/assign";
import { CliError } from "../cli/errors";
import { readText, unitInterval } from "../cli/options";

export function registerAssign(program: Command) {
  program
    .command("assign")
    .description("GrowthBook-compatible (v2 hash) arm assignment of units; JSONL out")
    .requiredOption("--seed <seed>", "the experiment's hash seed")
    .requiredOption("--weights <weights>", "arm weights in arm order, e.g. 0.5,0.5")
    .option("--coverage <share>", "share of units in the experiment, 0 to 1", unitInterval, 1)
    .requiredOption("--units <file>", "unit ids, one per line")
    .action(async (o: { seed: string; weights: string; coverage: number; units: string }) => {
      const weights = o.weights.split(",").map((w) => Number(w.trim()));
      try {
        validateWeights(weights, o.coverage);
      } catch (error) {
        throw new CliError(`--weights: ${(error as Error).message}.`, 2);
      }
      const units = (await readText(o.units, "units")).split(/\r?\n/).filter((u) => u !== "");
      const out = units.map((unit) => JSON.stringify(assignUnit(o.seed, unit, weights, o.coverage)));
      if (out.length) process.stdout.write(`${out.join("\n")}\n`);
    });
}
