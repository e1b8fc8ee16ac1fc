import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";

/**
 * What every form's action answers, in one shape: which form it answers (`intent`, null on a route
 * with one form), Conform's result (the errors by field name, "" for the form's own), and what was
 * done, in a sentence for the page's notice. A route may add what its page shows beside (a new key).
 */
export type FormAnswer<Intent extends string = string> = {
  intent: Intent | null;
  result: SubmissionResult<string[]>;
  done: string | null;
};

/**
 * Reads a posted form through its schema, the same call on both sides: the client's `useForm`
 * `onValidate` and the server's action (Conform's `parseWithZod`, which turns "" into unset).
 */
export function parseForm<Schema extends z.ZodTypeAny>(
  formData: FormData,
  schema: Schema,
): Submission<z.output<Schema>> {
  return parseWithZod(formData, { schema }) as Submission<z.output<Schema>>;
}

type Answered = { intent?: string | null; result?: SubmissionResult<string[]> | null } | null | undefined;

/** The form-level errors of an answer: refusals of the whole form, and an intent that was not understood. */
export function formErrorsOf(answer: Answered): string[] {
  const error = answer?.result?.error ?? {};
  return [...(error[""] ?? []), ...(error.intent ?? [])];
}

/** Every error of an answer as sentences: the form's first, then each field's in the order of the form. */
export function answerErrors(answer: Answered): string[] {
  const error = answer?.result?.error ?? {};
  const fields = Object.entries(error).filter(([name]) => name !== "" && name !== "intent");
  return [...formErrorsOf(answer), ...fields.flatMap(([, messages]) => messages ?? [])];
}

/**
 * The result for one form of a page with several: only an answer to one of its intents, so the other
 * forms neither show its errors nor reset.
 */
export function resultFor(answer: Answered, ...intents: string[]): SubmissionResult<string[]> | undefined {
  return answer?.intent && intents.includes(answer.intent) ? (answer.result ?? undefined) : undefined;
}

/**
 * Errors by the form's field names: Conform keys an element of a list by its path (`experts[1]`,
 * `arms[0].weight`), shown under the field the list is posted from (`experts`, `arms`).
 */
export function errorsByField(allErrors: Record<string, string[]>): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(allErrors)) {
    const field = name.replace(/[[.].*$/, "");
    byField[field] = [...(byField[field] ?? []), ...messages];
  }
  return byField;
}
