import type { Command } from "commander";
import password from "@inquirer/password";
import { createUserSchema } from "../../inputs/users";
import { createUser, DuplicateEmailError, WeakPasswordError } from "../../../db/accounts/users";
import { withDatabase } from "../database";
import { CliError } from "../errors";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export function registerAdmin(program: Command) {
  const admin = program.command("admin").description("manage admin accounts");
  admin
    .command("create")
    .description("create an admin (the first one of a production install comes from here)")
    .requiredOption("--email <email>", "the admin's email")
    .requiredOption("--name <name>", "the admin's name")
    .option("--password-stdin", "read the password from standard input instead of prompting")
    .action(async (options: { email: string; name: string; passwordStdin?: boolean }) => {
      let secret: string;
      if (options.passwordStdin) secret = await readStdin();
      else if (process.stdin.isTTY) {
        secret = await password({ message: "Password (at least 12 characters):", mask: "*" });
        const again = await password({ message: "Repeat it:", mask: "*" });
        if (again !== secret) throw new CliError("The two passwords differ; nothing was created.");
      } else
        throw new CliError("No terminal to prompt for a password: pass --password-stdin and pipe it in.", 2);
      const parsed = createUserSchema.safeParse({
        email: options.email,
        name: options.name,
        roles: ["admin"],
        password: secret,
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CliError(`${issue.path.join(".")}: ${issue.message}; nothing was created.`, 2);
      }
      const user = await withDatabase((db) =>
        createUser(db, "cli", parsed.data).catch((error) => {
          if (error instanceof DuplicateEmailError) throw new CliError(error.message);
          if (error instanceof WeakPasswordError)
            throw new CliError(`${error.message} Nothing was created.`, 2);
          throw error;
        }),
      );
      console.log(`Created admin ${user.name} <${user.email}>.`);
    });
}
