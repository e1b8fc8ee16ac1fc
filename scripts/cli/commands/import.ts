import fs from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { importFile } from "../../../db/import";
import { detectFormat, type FileFormat } from "../../../db/import/parse";
import { entityLabels, importEntities, importEntitySchema } from "../../inputs/import-rows";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { progressBar } from "../progress";

const SHOWN_ERRORS = 50;

export function registerImport(program: Command) {
  program
    .command("import")
    .description("import a CSV or JSONL file of one entity; a file with any bad row imports nothing")
    .argument("<entity>", `one of ${importEntities.join(", ")}`)
    .argument("<file>", "path to a .csv or .jsonl file")
    .option("--format <format>", "csv or jsonl (default: from the file name)")
    .action(async (entityArg: string, file: string, options: { format?: string }) => {
      const entity = importEntitySchema.safeParse(entityArg);
      if (!entity.success)
        throw new CliError(`Unknown entity "${entityArg}": use one of ${importEntities.join(", ")}.`, 2);
      if (options.format && options.format !== "csv" && options.format !== "jsonl")
        throw new CliError(`--format must be csv or jsonl, not "${options.format}".`, 2);
      // Bytes: importFile refuses a file that is not UTF-8, naming its first bad line.
      const bytes = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
        throw new CliError(
          `Cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}.`,
        );
      });
      const format = (options.format as FileFormat | undefined) ?? detectFormat(file, bytes);
      const bar = progressBar(`Importing ${entityLabels[entity.data]}`);
      const onProgress = (_phase: string, done: number, total: number) => bar.update(done, total);
      const result = await withDatabase((db) =>
        importFile(db, "cli", entity.data, bytes, format, { fileName: path.basename(file), onProgress }),
      );
      bar.stop();
      if (!result.ok) {
        for (const e of result.errors.slice(0, SHOWN_ERRORS))
          console.error(`${file}:${e.line}: ${e.message}`);
        if (result.errors.length > SHOWN_ERRORS)
          console.error(`…and ${result.errors.length - SHOWN_ERRORS} more.`);
        throw new CliError(
          `Nothing was imported: ${result.errors.length} problem${result.errors.length === 1 ? "" : "s"} in ${file}.`,
        );
      }
      const c = result.counts;
      console.log(
        `Imported ${result.rows} rows of ${entityLabels[result.entity]} from ${file}: ${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged` +
          (c.removed ? `, ${c.removed} removed` : "") +
          (c.listsAdded ? ` (${c.listsAdded} new lists)` : "") +
          ".",
      );
    });
}
