import { Command, CommanderError } from "commander";
import { CliError } from "./cli/errors";
import { registerAdmin } from "./commands/admin";
import { registerDemo } from "./commands/demo";
import { registerImport } from "./commands/import";
import { registerEval } from "./commands/eval";
import { registerCompare } from "./commands/compare";
import { registerAgreement } from "./commands/agreement";
import { registerOnline } from "./commands/online";
import { registerAssign } from "./commands/assign";
import { registerOffline } from "./commands/offline";
import { registerExperiment } from "./commands/experiment";
import { registerCampaign } from "./commands/campaign";
import { registerSnapshot } from "./commands/snapshot";

const program = new Command("assay")
  .description("Assay: evaluate a recommender of people offline, by expert grades, and online")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerImport(program);
registerAdmin(program);
registerDemo(program);
registerEval(program);
registerCompare(program);
registerAgreement(program);
registerOnline(program);
registerAssign(program);
registerOffline(program);
registerExperiment(program);
registerCampaign(program);
registerSnapshot(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof CliError) {
    console.error(`assay: ${error.message}`);
    process.exit(error.exitCode);
  }
  console.error(`assay: ${(error as Error).message}`);
  process.exit(1);
}
