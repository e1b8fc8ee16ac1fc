import type { Submission } from "@conform-to/react";
import { json, type TypedResponse } from "@remix-run/node";
import type { FormAnswer } from "~/forms/forms";

type AnswerInit = {
  status?: number;
  headers?: HeadersInit;
  /** What was done, for the page's notice. */
  done?: string | null;
  /** Empties the form after a success (a new user, a password). */
  resetForm?: boolean;
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
  /** Fields never sent back to the browser (passwords). */
  hideFields?: string[];
};

/** The posted `intent` when it is one the route knows, else null (the answer then belongs to no one form). */
function intentOf<Intent extends string>(submission: Submission<unknown>, known: readonly Intent[]) {
  const posted = submission.payload.intent;
  return typeof posted === "string" && (known as readonly string[]).includes(posted)
    ? (posted as Intent)
    : null;
}

/** Every form's answer, in the one shape of `FormAnswer` (plus what the route's page shows beside it). */
export function answer<Intent extends string, Extra extends object = Record<never, never>>(
  submission: Submission<unknown>,
  intent: Intent | null,
  init: AnswerInit = {},
  extra?: Extra,
): TypedResponse<FormAnswer<Intent> & Extra> {
  const { status, headers, done = null, resetForm, ...errors } = init;
  const result = resetForm ? submission.reply({ resetForm }) : submission.reply(errors);
  const body: FormAnswer<Intent> & Extra = { intent, result, done, ...(extra as Extra) };
  return json(body, { status, headers });
}

/** A form the server refuses as a whole (a rule of the domain, not a field): one sentence and its 4xx. */
export function refuse<Intent extends string>(
  submission: Submission<unknown>,
  intent: Intent | null,
  message: string,
  status = 400,
): TypedResponse<FormAnswer<Intent>> {
  return answer(submission, intent, { status, formErrors: [message] });
}

/**
 * Runs the handler of the posted intent: a submission that failed its schema (an unknown intent
 * included, see `intentSchema`) is a 400 with its errors and no handler runs.
 */
export function dispatchIntent<
  Value extends { intent: string },
  Handlers extends { [Intent in Value["intent"]]: (value: Extract<Value, { intent: Intent }>) => unknown },
>(
  submission: Submission<Value>,
  handlers: Handlers,
  invalid: { hideFields?: string[] } = {},
): ReturnType<Handlers[keyof Handlers]> | TypedResponse<FormAnswer<Value["intent"]>> {
  if (submission.status !== "success") {
    const intent = intentOf(submission, Object.keys(handlers) as Value["intent"][]);
    return answer(submission, intent, { status: 400, hideFields: invalid.hideFields });
  }
  const value = submission.value;
  const handler = handlers[value.intent as keyof Handlers] as (
    value: Value,
  ) => ReturnType<Handlers[keyof Handlers]>;
  return handler(value);
}
