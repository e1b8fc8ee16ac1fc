import { json } from "@remix-run/node";
import { z } from "zod";
import { adopt, committeeOf, ConvenerError, unadopt } from "../../db/experiments/convener";
import { getDb } from "~/utils/db.server";

/** A convener-side failure as the HTTP answer it deserves (403 not yours, 404 not in list, 409 full or finished). */
export async function convenerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConvenerError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

/** One committee change posted from the proposal page or a profile page. */
export const committeeChangeSchema = z.object({
  intent: z.enum(["adopt", "unadopt"]),
  candidate: z.string().min(1).max(200),
});

/**
 * Applies an Adopt or Remove and answers with the committee and the candidate acted on (so the page
 * can keep focus on that card). A refusal (full, finished, not in the list) comes back as `{ error }`
 * with its 4xx status, shown beside the buttons instead of replacing the page.
 */
export async function changeCommittee(
  userId: number,
  proposal: string,
  change: z.infer<typeof committeeChangeSchema>,
) {
  const db = getDb();
  try {
    if (change.intent === "adopt") await adopt(db, userId, proposal, change.candidate);
    else await unadopt(db, userId, proposal, change.candidate);
  } catch (error) {
    if (error instanceof ConvenerError)
      return json({ error: error.message, candidate: change.candidate }, { status: error.status });
    throw error;
  }
  return json({ committee: await committeeOf(db, userId, proposal), candidate: change.candidate });
}
