import { z } from "zod";
import { DEFAULT_SEED, PAGE_B } from "../../scripts/lib/defaults";

/** The most resamples a page or API computes: 20,000 already gives intervals stable to the third decimal. */
export const MAX_RESAMPLES = 20_000;
export const MIN_RESAMPLES = 100;

/** `B`, the bootstrap's resamples, wherever a page, form or API accepts it. */
export const resamplesField = z.coerce
  .number({ invalid_type_error: "Resamples (B) must be a number." })
  .int("Resamples (B) must be a whole number.")
  .min(MIN_RESAMPLES, `Use at least ${MIN_RESAMPLES} resamples (B).`)
  .max(MAX_RESAMPLES, `Use at most ${MAX_RESAMPLES.toLocaleString("en")} resamples (B).`);

export const seedField = z
  .string()
  .trim()
  .min(1, "Give a seed.")
  .max(100, "Use a seed of at most 100 characters.");

/** `?B=&seed=` of a report page: both optional, a bad value a 400 (see `bootstrapParams`). */
export const bootstrapParamsSchema = z.object({
  B: resamplesField.default(PAGE_B),
  seed: seedField.default(DEFAULT_SEED),
});

/** The bootstrap settings of a request's query string; a 400 with a sentence when they are not usable. */
export function bootstrapParams(request: Request): z.infer<typeof bootstrapParamsSchema> {
  const search = new URL(request.url).searchParams;
  const raw = Object.fromEntries(["B", "seed"].flatMap((k) => (search.get(k) ? [[k, search.get(k)]] : [])));
  const parsed = bootstrapParamsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Response(JSON.stringify({ message: parsed.error.issues[0].message }), {
      status: 400,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return parsed.data;
}
