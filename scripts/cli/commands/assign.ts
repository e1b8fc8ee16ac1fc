import type { Command } from "commander";
import { assignUnit, validateWeights, type HashVersion, type Namespace } from "../../assign/assign";
import { CliError } from "../errors";
import { readText, unitInterval } from "../options";

/** `--namespace id:start:end` as GrowthBook's namespace triple, with 0 ≤ start < end ≤ 1. */
function parseNamespace(text: string): Namespace {
  const match = /^(.+):([^:]+):([^:]+)$/.exec(text);
  const start = Number(match?.[2]);
  const end = Number(match?.[3]);
  if (
    !match ||
    match[2].trim() === "" ||
    match[3].trim() === "" ||
    !(start >= 0 && start < end && end <= 1)
  ) {
    throw new CliError(
      `--namespace must be id:start:end with 0 ≤ start < end ≤ 1 (e.g. pricing:0:0.5), not "${text}".`,
      2,
    );
  }
  return [match[1], start, end];
}

export function registerAssign(program: Command) {
  program
    .command("assign")
    .description(
      "GrowthBook-compatible arm assignment of units (hash v2 or v1, coverage, namespaces); JSONL out",
    )
    .requiredOption("--seed <seed>", "the experiment's hash seed")
    .requiredOption(
      "--weights <weights>",
      "arm weights in arm order, summing to 1 within GrowthBook's 0.99–1.01, e.g. 0.5,0.5",
    )
    .option("--coverage <share>", "share of units in the experiment, 0 to 1", unitInterval, 1)
    .option(
      "--hash-version <version>",
      "GrowthBook hashVersion: 2 (default) or 1 for experiments started on the old hash",
      "2",
    )
    .option(
      "--namespace <id:start:end>",
      "GrowthBook namespace: only units in [start, end) of namespace id get an arm",
    )
    .requiredOption("--units <file>", "unit ids, one per line")
    .action(
      async (o: {
        seed: string;
        weights: string;
        coverage: number;
        hashVersion: string;
        namespace?: string;
        units: string;
      }) => {
        const weights = o.weights.split(",").map((w) => Number(w.trim()));
        try {
          validateWeights(weights, o.coverage);
        } catch (error) {
          throw new CliError(`--weights: ${(error as Error).message}.`, 2);
        }
        if (o.hashVersion !== "1" && o.hashVersion !== "2")
          throw new CliError(`--hash-version must be 1 or 2, not "${o.hashVersion}".`, 2);
        const options = {
          hashVersion: Number(o.hashVersion) as HashVersion,
          namespace: o.namespace === undefined ? undefined : parseNamespace(o.namespace),
        };
        const units = (await readText(o.units, "units")).split(/\r?\n/).filter((u) => u !== "");
        const out = units.map((unit) =>
          JSON.stringify(assignUnit(o.seed, unit, weights, o.coverage, options)),
        );
        if (out.length) process.stdout.write(`${out.join("\n")}\n`);
      },
    );
}
