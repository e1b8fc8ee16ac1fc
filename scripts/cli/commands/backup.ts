import { once } from "node:events";
import fs from "node:fs";
import type { Command } from "commander";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { BackupError, restoreBackup, writeBackup } from "../../../db/backup";
import { codeMigrations } from "../../../db/backup/migrations";
import { migrationsFolder } from "../../../db/migrate";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { assertReadable } from "../options";
import { progressBar } from "../progress";

const fail = (error: unknown): never => {
  if (error instanceof BackupError) throw new CliError(error.message);
  throw error;
};

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `assay backup FILE` and `assay restore FILE`: the embedded PostgreSQL ships no pg_dump. */
export function registerBackup(program: Command) {
  program
    .command("backup")
    .description("write a consistent archive of the whole database, migration version included")
    .argument("<file>", "the archive to write (gzip), e.g. assay.backup.gz; replaced only once complete")
    .action(async (file: string) => {
      const started = performance.now();
      // Written beside the target and renamed at the end, so a failed backup never looks like a whole one;
      // readable by its owner only, since it holds password and session hashes.
      const partial = `${file}.partial-${process.pid}`;
      const summary = await withDatabase(
        async (_db, sql) => {
          const output = fs.createWriteStream(partial, { flags: "wx", mode: 0o600 });
          try {
            await once(output, "open");
          } catch (error) {
            throw new CliError(
              `Cannot write the backup file ${file}: ${
                (error as NodeJS.ErrnoException).code === "ENOENT"
                  ? "no such folder"
                  : (error as Error).message
              }.`,
            );
          }
          const bar = progressBar("Backing up");
          try {
            const written = await writeBackup(sql, output, {
              onProgress: (done, total) => bar.update(done, total),
            });
            fs.renameSync(partial, file);
            return written;
          } catch (error) {
            fs.rmSync(partial, { force: true });
            return fail(error);
          } finally {
            bar.stop();
          }
        },
        { migrate: false },
      );
      const size = megabytes(fs.statSync(file).size);
      console.log(
        `Backed up ${summary.rows} rows of ${summary.tables} tables (schema at migration ${
          summary.migrations
        }) to ${file}, ${size}, in ${seconds(started)} s.`,
      );
    });
  program
    .command("restore")
    .description("load an archive made by `assay backup` into an empty database")
    .argument("<file>", "the archive")
    .action(async (file: string) => {
      await assertReadable(file, "backup");
      const started = performance.now();
      const { summary, later } = await withDatabase(
        async (db, sql) => {
          const bar = progressBar("Restoring");
          const restored = await restoreBackup(sql, fs.createReadStream(file), {
            onProgress: (done, total) => bar.update(done, total),
          })
            .catch(fail)
            .finally(() => bar.stop());
          // An archive from an older Assay is loaded at its own version; the newer migrations then run on its rows.
          const later = codeMigrations().length - restored.migrations;
          if (later > 0) await migrate(db, { migrationsFolder });
          return { summary: restored, later };
        },
        { migrate: false },
      );
      const migrated = later > 0 ? `; then applied ${later} newer migration${later > 1 ? "s" : ""}` : "";
      console.log(
        `Restored ${summary.rows} rows of ${summary.tables} tables from ${file} (backed up ${
          summary.createdAt
        }, schema at migration ${summary.migrations})${migrated}, in ${seconds(started)} s.`,
      );
    });
}
