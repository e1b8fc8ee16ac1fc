import { z } from "zod";
import { asNumber } from "../../scripts/inputs/forms";
import { RESULT_KINDS } from "../../scripts/inputs/result-settings";
import { resamplesField, seedField } from "~/schemas/bootstrap";

/**
 * The snapshot form (and the freeze buttons of the result pages, which post here): what to freeze and the
 * parameters of its page on screen. A cleared B is 0 resamples, refused, not the default.
 */
export const freezeSchema = z.object({
  kind: z.enum(RESULT_KINDS, {
    errorMap: () => ({ message: "Choose what to freeze: offline, expert, online or clicks." }),
  }),
  campaign: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  experiment: z.string().optional(),
  // Absent: the page's B (PAGE_B).
  B: z.preprocess(asNumber, resamplesField.optional()),
  // Empty: the seed the result's own page uses (the experiment's, the campaign's, "assay" offline).
  seed: z
    .literal("")
    .transform(() => undefined)
    .or(seedField)
    .optional(),
  // The online page's intervals on screen: fixed (bootstrap) or sequential (always valid, with its N*).
  intervals: z
    .enum(["fixed", "sequential"], {
      errorMap: () => ({ message: "Intervals must be fixed or sequential." }),
    })
    .optional(),
  nStar: z.coerce
    .number()
    .int("N* must be a whole number.")
    .min(1, "N* must be at least 1.")
    .max(10_000_000, "N* must be at most 10,000,000.")
    .optional(),
  // The cutoffs of the offline page on screen, "5,10,20"; absent elsewhere (each kind has its own).
  ks: z
    .string()
    .regex(
      /^\d{1,3}(,\d{1,3}){0,19}$/,
      "Cutoffs (K) must be whole numbers separated by commas, such as 5,10,20.",
    )
    .transform((v) => v.split(",").map(Number))
    .refine((ks) => ks.every((k) => k >= 1), "Every cutoff (K) must be at least 1.")
    .optional(),
});
