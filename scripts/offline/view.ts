import { z } from "zod";

/** A calendar day written YYYY-MM-DD (a real day), as the import takes dates. */
const day = (field: string) =>
  z
    .string()
    .trim()
    .superRefine((d, ctx) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d))
        ctx.addIssue({ code: "custom", message: `${field} must be a date written YYYY-MM-DD.` });
      else if (
        Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ||
        !new Date(`${d}T00:00:00Z`).toISOString().startsWith(d)
      ) {
        ctx.addIssue({ code: "custom", message: `${field} (${d}) is not a real calendar day.` });
      }
    });

/**
 * How the offline report looks at the data beyond B and seed: conflicted candidates removed or not,
 * the bootstrap stratified by subject or not, and the evaluation window. One schema for the CLI flags,
 * the dashboard's query string and a snapshot's parameters.
 */
export const offlineViewSchema = z
  .object({
    excludeConflicts: z.boolean().default(false),
    stratify: z
      .enum(["subject"], { errorMap: () => ({ message: "Stratify by subject, or not at all." }) })
      .nullable()
      .default(null),
    from: day("The window's start").nullable().default(null),
    to: day("The window's end").nullable().default(null),
    /** Proposals whose committee is larger than this are dropped (counted and listed), as multi-winner contracts are. */
    maxCommittee: z
      .number({ invalid_type_error: "The committee cap must be a whole number." })
      .int("The committee cap must be a whole number.")
      .min(1, "The committee cap must be 1 or more.")
      .nullable()
      .optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    message: "The window's start must not be after its end.",
    path: ["to"],
  });

export type OfflineView = z.infer<typeof offlineViewSchema>;

/** The view's non-default settings only, so a snapshot frozen without them keeps the parameters it always had. */
export function viewParameters(view: OfflineView): Partial<OfflineView> {
  return Object.fromEntries(
    Object.entries(view).filter(([, v]) => v !== null && v !== false),
  ) as Partial<OfflineView>;
}
