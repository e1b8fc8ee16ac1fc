import { z } from "zod";
import { guardrailsSchema } from "./guardrails";

export const MAX_PRE_PERIOD_DAYS = 365;

const days = `the pre-period is a whole number of days from 1 to ${MAX_PRE_PERIOD_DAYS}`;

/**
 * How an A/B experiment's result is read (stored per experiment, recorded in its snapshots): the engine,
 * CUPED and its pre-period, and the Bayesian engine's prior on the relative effect (a variance makes the
 * prior proper; none leaves it flat, GrowthBook's default). Shared by the admin form and its action.
 */
export const analysisSettingsSchema = z.object({
  engine: z.enum(["frequentist", "bayesian"], {
    errorMap: () => ({ message: "the engine is frequentist or bayesian" }),
  }),
  cuped: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  prePeriodDays: z.coerce
    .number({ invalid_type_error: days })
    .int(days)
    .min(1, days)
    .max(MAX_PRE_PERIOD_DAYS, days),
  priorMean: z.preprocess(
    (v) => (v === "" || v === undefined ? 0 : v),
    z.coerce
      .number({ invalid_type_error: "the prior mean must be a number" })
      .finite("the prior mean must be a number"),
  ),
  priorVariance: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? undefined : v),
    z.coerce
      .number({ invalid_type_error: "the prior variance must be a number above 0" })
      .finite("the prior variance must be a number above 0")
      .positive("the prior variance must be above 0 (leave it empty for a flat prior)")
      .optional(),
  ),
  guardrails: guardrailsSchema,
});

export type AnalysisSettings = z.output<typeof analysisSettingsSchema>;
