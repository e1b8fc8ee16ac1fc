import { Command, CommanderError } from "commander";
import { CliError } from "./cli/errors";
import { registerAdmin } from "./commands/admin";
import { registerDemo } from "./commands/demo";
import { registerImport } from "./commands/import";

const program = new Command("assay")
  .description("Assay: evaluate a recommender of people offline, by expert grades, and online")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerImport(program);
registerAdmin(program);
registerDemo(program);

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
