import { z } from "zod";

/** A GET form sends an unchosen select or an empty date as "": that means "any", not a bad value. */
const blankIsAny = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Date accepts 2026-02-31 (as 3 March): only a day that reads back the same is in the calendar. */
const inCalendar = (s: string) => {
  const time = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(s);
};

const day = (field: string) =>
  z
    .string()
    .regex(DAY, `${field} must be a date such as 2026-11-22`)
    // Only for the right shape, so a wrong one gets one sentence, not two.
    .refine((s) => !DAY.test(s) || inCalendar(s), `${field} is not a date in the calendar`);

/**
 * The audit log's filters, read from the URL by the page and its CSV export alike: who (an actor as
 * the log names them, e.g. "Ada <ada@x.org>" or "cli"), what (an action such as campaign.launch),
 * when (from and to, whole UTC days, both included) and the page.
 */
export const auditFilterSchema = z
  .object({
    who: blankIsAny(z.string().trim().max(320, "who is longer than 320 characters")),
    what: blankIsAny(
      z
        .string()
        .trim()
        .regex(/^[a-z][a-z_.]{0,63}$/, "what must be an action name such as campaign.launch"),
    ),
    from: blankIsAny(day("from")),
    to: blankIsAny(day("to")),
    page: blankIsAny(
      z.coerce
        .number({ invalid_type_error: "page must be a whole number from 1" })
        .int("page must be a whole number from 1")
        .min(1, "page must be a whole number from 1")
        .max(1_000_000, "page is at most 1,000,000"),
    ),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: "from must be on or before to",
    path: ["to"],
  });

export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** The filters of a URL, or the sentence that says which value is wrong (for a 400). */
export function parseAuditFilter(
  url: URL,
): { ok: true; filter: AuditFilter } | { ok: false; message: string } {
  const parsed = auditFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  if (parsed.success) return { ok: true, filter: parsed.data };
  return {
    ok: false,
    message: `The filters were not understood: ${parsed.error.issues.map((i) => i.message).join("; ")}.`,
  };
}
