import type { Submission } from "@conform-to/react";
import { BadLinkError, WeakPasswordError } from "~/data/accounts.server";
import { answer, refuse } from "~/forms/forms.server";

const hidden = ["password", "repeat"];

/**
 * The action of a page reached by a single-use link that sets a password (accepting an invitation,
 * resetting a password): `spend` uses the link and says what happened. A weak password marks its field,
 * a used, expired or forged link is a 410; the passwords are never sent back.
 */
export async function passwordLinkAction<Value>(
  submission: Submission<Value>,
  spend: (value: Value) => Promise<string>,
) {
  if (submission.status !== "success") return answer(submission, null, { status: 400, hideFields: hidden });
  try {
    return answer(submission, null, { resetForm: true, done: await spend(submission.value) });
  } catch (error) {
    if (error instanceof WeakPasswordError)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { password: [error.message] },
        hideFields: hidden,
      });
    if (error instanceof BadLinkError) return refuse(submission, null, error.message, 410);
    throw error;
  }
}
