import { recomputeSchema } from "../../scripts/inputs/recompute";
import { requireUserWithRole } from "~/security/auth.server";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent } from "~/forms/forms.server";

/** What the page says once the result was computed anew. */
export const RECOMPUTED = "Recomputed from the current data.";

/** Who may recompute: whoever may read these pages (analysts, and admins, who see them too). */
export const RECOMPUTE_ROLES = ["analyst", "admin"] as const;

/**
 * The Recompute button's action on a page with a kept result: an analyst (or admin) drops that one result (the
 * page's settings, read from the URL as its loader reads them) and has it computed anew; `recompute`
 * does both. The page's loader then serves the new one (or its progress, for a fit still running).
 */
export async function recomputeAction(request: Request, recompute: () => Promise<unknown>) {
  await requireUserWithRole(request, RECOMPUTE_ROLES);
  const submission = parseForm(await request.formData(), recomputeSchema);
  return dispatchIntent(submission, {
    recompute: async ({ intent }) => {
      await recompute();
      return answer(submission, intent, { done: RECOMPUTED });
    },
  });
}
