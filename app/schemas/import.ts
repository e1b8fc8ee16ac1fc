import { z } from "zod";
import { importEntitySchema } from "../../scripts/inputs/import-rows";

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const importUploadSchema = z.object({
  entity: importEntitySchema,
  file: z
    .instanceof(File, { message: "Choose a CSV or JSONL file to import" })
    .refine((f) => f.size > 0, "The file is empty")
    .refine(
      (f) => f.size <= MAX_UPLOAD_BYTES,
      "The file is larger than 50 MB; import it with the CLI instead",
    ),
});
