import { json } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import { adopt, committeeOf, ConvenerError, unadopt } from "../../db/experiments/convener";
import { getDb } from "~/utils/db.server";
import { answer } from "~/forms/forms.server";
import type { CommitteeChange } from "../../scripts/inputs/convener";

/** A convener-side failure as the HTTP answer it deserves (403 not yours, 404 not in list, 409 full or finished). */
export async function convenerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConvenerError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

/**
 * Applies an Adopt or Remove and answers in the one form shape, with the committee and the candidate
 * acted on (so the page can keep focus on that card). A refusal (full, finished, not in the list) is
 * the form's error with its 4xx status, shown beside the buttons instead of replacing the page.
 */
export async function changeCommittee(
  submission: Submission<unknown>,
  userId: number,
  proposal: string,
  change: CommitteeChange,
) {
  const db = getDb();
  const { intent, candidate } = change;
  try {
    if (intent === "adopt") await adopt(db, userId, proposal, candidate);
    else await unadopt(db, userId, proposal, candidate);
  } catch (error) {
    if (error instanceof ConvenerError)
      return answer(
        submission,
        intent,
        { status: error.status, formErrors: [error.message] },
        { candidate, committee: null as number[] | null },
      );
    throw error;
  }
  return answer(submission, intent, {}, { candidate, committee: await committeeOf(db, userId, proposal) });
}
