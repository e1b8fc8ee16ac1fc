import fs from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { loadGold } from "../../../db/catalog/offline-input";
import {
  isProtocolName,
  PROTOCOLS,
  ProtocolError,
  splitCommittees,
  splitLines,
} from "../../offline/protocol";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { DEFAULT_SEED } from "../../lib/defaults";
import { wholeNumber } from "../options";

export function registerProtocol(program: Command) {
  const protocol = program
    .command("protocol")
    .description(
      "offline protocols (given m, all but 1): split the gold committees into inputs and measurement sets",
    );
  protocol
    .command("split")
    .description(
      "write the inputs (a JSON line per proposal and fold: proposal, variant, protocol, given) and the measurement sets",
    )
    .requiredOption("--protocol <name>", `one of ${PROTOCOLS.join(", ")}`)
    .option("--seed <seed>", "seed of the random splits", DEFAULT_SEED)
    .option("--folds <F>", "repeated random splits (variants fold-1 … fold-F)", wholeNumber(1), 1)
    .option("--out <dir>", "folder for inputs.jsonl and measurement.jsonl", ".")
    .option("--json", "print the summary as JSON")
    .action(split);
}

interface SplitOptions {
  protocol: string;
  seed: string;
  folds: number;
  out: string;
  json?: boolean;
}

/** Writes both files only when the split succeeds, so a refused split leaves nothing behind. */
async function split(o: SplitOptions) {
  if (!isProtocolName(o.protocol))
    throw new CliError(`--protocol ${o.protocol} is not one of ${PROTOCOLS.join(", ")}.`, 2);
  if (o.seed.trim() === "") throw new CliError("--seed is empty.", 2);
  const gold = await withDatabase((db) => loadGold(db));
  let result;
  try {
    result = splitCommittees(gold, { protocol: o.protocol, seed: o.seed.trim() }, o.folds);
  } catch (error) {
    if (error instanceof ProtocolError) throw new CliError(`${error.message}.`, 2);
    throw error;
  }
  const { inputs, measurement } = splitLines(result);
  await fs.mkdir(o.out, { recursive: true });
  const files = {
    inputs: path.join(o.out, "inputs.jsonl"),
    measurement: path.join(o.out, "measurement.jsonl"),
  };
  await fs.writeFile(files.inputs, inputs.join("\n") + "\n");
  await fs.writeFile(files.measurement, measurement.join("\n") + "\n");
  const proposals = new Set(result.cases.map((c) => c.proposal)).size;
  const summary = {
    protocol: `${o.protocol}:${o.seed.trim()}`,
    folds: o.folds,
    proposals,
    cases: result.cases.length,
    dropped: result.dropped,
    files,
  };
  if (o.json) return console.log(JSON.stringify(summary, null, 2));
  console.log(
    `${summary.protocol}: ${proposals} proposals × ${o.folds} fold${o.folds > 1 ? "s" : ""} = ${result.cases.length} inputs in ${files.inputs}, measurement sets in ${files.measurement}.`,
  );
  if (result.dropped.length) {
    const shown = result.dropped.slice(0, 20).map((d) => `${d.proposal} (${d.members})`);
    console.log(
      `Dropped ${result.dropped.length} proposal${result.dropped.length > 1 ? "s" : ""} whose committee is too small: ${shown.join(", ")}${result.dropped.length > 20 ? ", …" : ""}.`,
    );
  }
  console.log(
    `Run the system on each input line (the given members are the convener's picks), then import its lists with the variant and protocol columns as given (protocol ${summary.protocol}).`,
  );
}
