import { z } from "zod";
import { intentSchema } from "./forms";

/** A candidate of the recommended list, by its external id. */
export const candidateField = z
  .string({ required_error: "Choose a candidate." })
  .min(1, "Choose a candidate.")
  .max(200, "A candidate id has at most 200 characters.");

/** One committee change: Adopt or Remove a candidate. */
export const committeeChangeSchema = z.object({
  intent: z.enum(["adopt", "unadopt"]),
  candidate: candidateField,
});

export type CommitteeChange = z.infer<typeof committeeChangeSchema>;

/**
 * The forms of a convener's proposal page: Adopt or Remove a card's candidate, Finish (with nobody
 * adopted only after the explicit second step, `confirm=empty`), Reopen a finished committee, and the
 * page's own report that it was shown (the impression, with the view the server rendered it with).
 */
export const convenerProposalSchema = intentSchema(
  z.object({ intent: z.literal("adopt"), candidate: candidateField }),
  z.object({ intent: z.literal("unadopt"), candidate: candidateField }),
  z.object({ intent: z.literal("finish"), confirm: z.literal("empty").optional() }),
  z.object({ intent: z.literal("reopen") }),
  z.object({
    intent: z.literal("impression"),
    view: z
      .string({ required_error: "The page view is missing: reload the page." })
      .min(1, "The page view is missing: reload the page.")
      .max(200, "The page view is not one Assay showed: reload the page."),
  }),
);

export type ConvenerProposalForm = z.output<typeof convenerProposalSchema>;

/**
 * The forms of a candidate's profile (the candidate named by the address): Open it from the list (the
 * logged click, a POST so that no other site can cause one), Adopt or Remove that candidate.
 */
export const convenerProfileSchema = intentSchema(
  z.object({ intent: z.literal("open") }),
  z.object({ intent: z.literal("adopt") }),
  z.object({ intent: z.literal("unadopt") }),
);
