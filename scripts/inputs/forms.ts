import { z } from "zod";

/** What a form answers when its `intent` is not one the route knows (a stale page, a hand-made request). */
export const UNKNOWN_INTENT = "That request was not understood; reload the page and try again.";

type IntentOption = z.ZodObject<{ intent: z.ZodLiteral<string> } & z.ZodRawShape>;

/**
 * The forms of one route as one schema: a discriminated union on `intent` (the submit button's
 * `name="intent"`), so the action gets a typed intent union and a missing or unknown intent fails the
 * parse on the `intent` field with `UNKNOWN_INTENT` (a 400), before any handler runs.
 */
export function intentSchema<Options extends [IntentOption, ...IntentOption[]]>(...options: Options) {
  return z.discriminatedUnion("intent", options, {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator"
        ? { message: UNKNOWN_INTENT }
        : { message: ctx.defaultError },
  });
}

/** A form's text field read as a number as `Number()` reads it ("" is 0), so a blank field meets the range check. */
export const asNumber = (value: unknown) => (typeof value === "string" ? Number(value) : value);

/** A form's text of ids separated by spaces or commas, as a list (unset when it holds none). */
export const asIdList = (value: unknown) => {
  if (typeof value !== "string") return value;
  const ids = value.split(/[\s,]+/).filter(Boolean);
  return ids.length ? ids : undefined;
};

/**
 * The confirmation a destructive or final action requires (`confirmed=yes`, posted by the confirm
 * dialog's button): a post without it is refused with `message` and the page opens the dialog.
 */
export const confirmField = (message: string) => z.literal("yes", { errorMap: () => ({ message }) });
