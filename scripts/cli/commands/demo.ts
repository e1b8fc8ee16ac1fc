import type { Command } from "commander";
import { isDatabaseEmpty, seedDemo, DEMO_PASSWORD, demoUsers } from "../../demo/seed";
import { demoSummary } from "../../demo/generate";
import { withDatabase } from "../database";
import { CliError } from "../errors";

export function registerDemo(program: Command) {
  program
    .command("demo")
    .description("load the deterministic demo data set and demo users into an empty database")
    .option("--seed <seed>", "seed of the generator", "assay-demo")
    .action(async (options: { seed: string }) => {
      const summary = await withDatabase(async (db) => {
        if (!(await isDatabaseEmpty(db)))
          throw new CliError(
            "The database already has users or proposals; the demo loads only into an empty database.",
          );
        return demoSummary(await seedDemo(db, { seed: options.seed }));
      });
      console.log(`Loaded ${summary}.`);
      console.log(
        `Demo logins (password "${DEMO_PASSWORD}"): ${demoUsers.map((u) => `${u.email} (${u.roles.join(", ")})`).join(", ")}.`,
      );
    });
}
