import { z } from "zod";

/** A share the analyst expects of a group (issue 27): `attribute=value:share`, the share from 0 to 1. */
export const fairnessTargetSchema = z.object({
  attribute: z
    .string()
    .trim()
    .min(1, "the attribute is empty")
    .max(100, "the attribute is over 100 characters"),
  value: z.string().min(1, "the value is empty").max(200, "the value is over 200 characters"),
  share: z
    .number({ invalid_type_error: "the share must be a number from 0 to 1" })
    .min(0, "the share must be a number from 0 to 1")
    .max(1, "the share must be a number from 0 to 1"),
});
export type FairnessTarget = z.infer<typeof fairnessTargetSchema>;

/** Parses `attribute=value:share` (CLI now; the offline page's settings could reuse it). */
export function parseFairnessTarget(
  text: string,
): { ok: true; value: FairnessTarget } | { ok: false; error: string } {
  const match = /^([^=]+)=(.+):([^:]+)$/.exec(text);
  if (!match) return { ok: false, error: "write attribute=value:share, e.g. gender=f:0.4" };
  const [, attribute, value, share] = match;
  const parsed = fairnessTargetSchema.safeParse({
    attribute,
    value,
    share: share.trim() === "" ? NaN : Number(share),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: issue.path[0] === "share" ? `${issue.message}, not "${share}"` : issue.message,
    };
  }
  return { ok: true, value: parsed.data };
}
