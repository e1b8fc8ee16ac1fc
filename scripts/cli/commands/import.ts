import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { importStream, type ImportProgress } from "../../../db/import";
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
      const size = await fs.stat(file).then(
        (s) => s.size,
        (error: NodeJS.ErrnoException) => {
          throw new CliError(
            `Cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}.`,
          );
        },
      );
      const format = (options.format as FileFormat | undefined) ?? detectFormat(file, await head(file));
      // The file is streamed (bytes: the import refuses a file that is not UTF-8, naming its first bad
      // line), so a file of millions of rows costs the memory of a batch; progress is by bytes read.
      const bar = progressBar(`Importing ${entityLabels[entity.data]}`);
      const onProgress = (p: ImportProgress) => bar.update(p.bytesRead, size);
      const result = await withDatabase((db) =>
        importStream(db, "cli", entity.data, createReadStream(file, { highWaterMark: 1 << 20 }), format, {
          fileName: path.basename(file),
          onProgress,
        }),
      );
      bar.stop();
      if (!result.ok) {
        for (const e of result.errors.slice(0, SHOWN_ERRORS))
          console.error(`${file}:${e.line}: ${e.message}`);
        if (result.totalErrors > SHOWN_ERRORS)
          console.error(`…and ${result.totalErrors - SHOWN_ERRORS} more.`);
        throw new CliError(
          `Nothing was imported: ${result.totalErrors} problem${result.totalErrors === 1 ? "" : "s"} in ${file}.`,
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

/** The first bytes of a file, to tell CSV from JSONL when the name does not say. */
async function head(file: string): Promise<Uint8Array> {
  const handle = await fs.open(file);
  try {
    const buffer = new Uint8Array(256);
    const { bytesRead } = await handle.read(buffer, 0, 256, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
