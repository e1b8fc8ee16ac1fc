import { z } from "zod";
import { importEntities, type ImportEntity } from "../../scripts/inputs/import-rows";

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The entity as the page asks for it: a sentence when it is missing or not one it offers. */
const entitySchema = z.enum(importEntities as [ImportEntity, ...ImportEntity[]], {
  errorMap: () => ({ message: "Choose what the file holds." }),
});

export const importUploadSchema = z.object({
  intent: z.literal("import").optional(),
  entity: entitySchema,
  file: z
    .instanceof(File, { message: "Choose a CSV or JSONL file to import." })
    .refine((f) => f.size > 0, "The file is empty.")
    .refine(
      (f) => f.size <= MAX_UPLOAD_BYTES,
      "The file is larger than 50 MB; import it with the CLI instead.",
    ),
});

/** Stops a running import: its id, as the page got it when the import started. */
export const importCancelSchema = z.object({
  intent: z.literal("cancel"),
  job: z.string().uuid("This import is not known."),
});
