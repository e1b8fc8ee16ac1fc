import { Command, CommanderError } from "commander";
import { CliError } from "./errors";
import { GunzipLimitError } from "../io/gunzip";
import { describeError } from "../lib/log";

const program = new Command("assay")
  .description("Assay: evaluate a recommender of people offline, by expert grades, and online")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

// Each command's module, by the top-level commands it adds. Only the one asked for is loaded (the
// database layer, say, is no part of `assay eval`): about half a second less before any work starts.
type Register = (program: Command) => void;
const commandModules: [string[], () => Promise<Register>][] = [
  [["import"], async () => (await import("./commands/import")).registerImport],
  [["admin"], async () => (await import("./commands/admin")).registerAdmin],
  [["demo"], async () => (await import("./commands/demo")).registerDemo],
  [["eval"], async () => (await import("./commands/eval")).registerEval],
  [["compare"], async () => (await import("./commands/compare")).registerCompare],
  [["agreement"], async () => (await import("./commands/agreement")).registerAgreement],
  [["online"], async () => (await import("./commands/online")).registerOnline],
  [["assign"], async () => (await import("./commands/assign")).registerAssign],
  [["offline", "baselines"], async () => (await import("./commands/offline")).registerOffline],
  [["experiment", "events"], async () => (await import("./commands/experiment")).registerExperiment],
  [["campaign"], async () => (await import("./commands/campaign")).registerCampaign],
  [["snapshot"], async () => (await import("./commands/snapshot")).registerSnapshot],
  [["backup", "restore"], async () => (await import("./commands/backup")).registerBackup],
  [["clicks"], async () => (await import("./commands/clicks")).registerClicks],
  [["interleave"], async () => (await import("./commands/interleave")).registerInterleave],
  [["power"], async () => (await import("./commands/power")).registerPower],
  [["fairness"], async () => (await import("./commands/fairness")).registerFairness],
  [["lists"], async () => (await import("./commands/lists")).registerLists],
  [["protocol"], async () => (await import("./commands/protocol")).registerProtocol],
  [["trec_eval"], async () => (await import("./commands/trec-eval")).registerTrecEval],
];
// Help, an unknown command or none at all: every command, so the listing and suggestions are whole.
const asked = commandModules.filter(([names]) => names.includes(process.argv[2]));
for (const [, load] of asked.length ? asked : commandModules) (await load())(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof CliError) {
    console.error(`assay: ${error.message}`);
    process.exit(error.exitCode);
  }
  // A gzipped input past its limits (scripts/io/gunzip.ts), from whichever command read it: bad input.
  if (error instanceof GunzipLimitError) {
    console.error(`assay: ${error.message}`);
    process.exit(2);
  }
  // An unexpected error may be a driver's, whose message repeats the query's parameters: redacted.
  console.error(describeError("assay", error));
  process.exit(1);
}
