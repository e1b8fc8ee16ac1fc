import { z } from "zod";
import { asIdList, asNumber, confirmField, intentSchema } from "./forms";
import { idField } from "./ids";
import { campaignInviteForm, invitationRowForms } from "./invitations";

const campaignFields = {
  name: z.string({ required_error: "name is missing" }).trim().min(1, "name is missing").max(200),
  instructions: z.string().max(20_000).default(""),
  systems: z.array(z.string().trim().min(1)).min(1, "choose at least one system whose lists are pooled"),
  depth: z.coerce
    .number()
    .int("the pool depth must be a whole number")
    .min(1, "the pool depth must be at least 1")
    .max(200, "the pool depth is at most 200"),
  raters: z.coerce
    .number()
    .int("raters per proposal must be a whole number")
    .min(1, "at least one rater per proposal")
    .max(10, "at most 10 raters per proposal"),
  experts: z
    .array(z.string().trim().email("every expert must be an email address"))
    .min(1, "invite at least one expert"),
  subject: z.string().trim().optional(),
  proposals: z.array(z.string().trim().min(1)).optional(),
  deadline: z
    .string()
    .trim()
    .refine((s) => !Number.isNaN(Date.parse(s)), "the deadline must be a date")
    .optional(),
};

/** Raters per proposal need as many distinct experts; checked on the create and the edit form alike. */
function expertsCoverRaters(c: { experts: string[]; raters: number }, ctx: z.RefinementCtx) {
  if (new Set(c.experts.map((e) => e.toLowerCase())).size < c.raters)
    ctx.addIssue({
      code: "custom",
      path: ["experts"],
      message: `${c.raters} raters per proposal need at least ${c.raters} experts`,
    });
}

/** A rating campaign as an admin or a script creates it. */
export const campaignSchema = z.object(campaignFields).superRefine(expertsCoverRaters);

/**
 * The admin's campaign form as posted (create and edit): numbers read as `Number()` reads them, the
 * proposals as one text of ids separated by spaces or commas; Conform's parse makes "" unset.
 */
const campaignFormFields = {
  ...campaignFields,
  depth: z.preprocess(asNumber, campaignFields.depth),
  raters: z.preprocess(asNumber, campaignFields.raters),
  proposals: z.preprocess(asIdList, campaignFields.proposals),
};

/** The create form of the campaigns page. */
export const campaignFormSchema = z.object(campaignFormFields).superRefine(expertsCoverRaters);

export type CampaignInput = z.infer<typeof campaignSchema>;

/** One autosaved grade: 1–4, or "cant" (can't judge), with an optional rationale. */
export const gradeSchema = z.object({
  item: idField("item must be a card id"),
  grade: z.enum(["1", "2", "3", "4", "cant"], {
    errorMap: () => ({ message: "grade must be 1, 2, 3, 4 or can't judge" }),
  }),
  rationale: z
    .string()
    .max(2000, "the rationale is longer than 2,000 characters")
    .refine((r) => !r.includes("\u0000"), "the rationale has a NUL character, which cannot be stored")
    .default(""),
  position: z.coerce.number().int().min(1).max(10_000),
  timeSpentMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600 * 1000)
    .default(0),
});

const knownGrade = "Choose a known grade from 1 to 4.";

/**
 * The forms of an admin's campaign page, one per intent: edit or delete the draft, launch, close,
 * hand an assignment to another expert, adjudicate a disagreement, attach or remove a gold item.
 */
const noPairs = "No pair needs another grade.";
const topPairs = "Choose how many pairs from the top, 1 to 20.";
const moreGrades = "Choose how many more grades per pair, 1 to 5.";

export const campaignPageSchema = intentSchema(
  z.object({ intent: z.literal("update"), ...campaignFormFields }),
  z.object({ intent: z.literal("delete"), confirmed: confirmField("Confirm deleting the draft.") }),
  z.object({ intent: z.literal("launch") }),
  z.object({ intent: z.literal("close"), confirmed: confirmField("Confirm closing the campaign.") }),
  z.object({ intent: z.literal("reopen") }),
  z.object({
    intent: z.literal("reassign"),
    assignment: idField("Choose the expert who takes over."),
    expert: idField("Choose the expert who takes over."),
  }),
  z.object({
    intent: z.literal("adjudicate"),
    item: idField("Choose a final grade from 1 to 4."),
    grade: z
      .enum(["1", "2", "3", "4"], { errorMap: () => ({ message: "Choose a final grade from 1 to 4." }) })
      .transform((g) => Number(g) as 1 | 2 | 3 | 4),
    note: z
      .string()
      .default("")
      .transform((note) => note.slice(0, 2000)),
  }),
  z.object({
    intent: z.literal("attach-truth"),
    proposal: z
      .string({ required_error: "Give the proposal's id." })
      .trim()
      .min(1, "Give the proposal's id.")
      .max(200, "The proposal id is longer than 200 characters."),
    candidate: z
      .string({ required_error: "Give the candidate's id." })
      .trim()
      .min(1, "Give the candidate's id.")
      .max(200, "The candidate id is longer than 200 characters."),
    grade: z.coerce
      .number({ invalid_type_error: knownGrade, required_error: knownGrade })
      .int(knownGrade)
      .min(1, knownGrade)
      .max(4, knownGrade),
  }),
  z.object({ intent: z.literal("remove-truth"), item: idField("Choose the gold item to remove.") }),
  z.object({
    intent: z.literal("request-grades"),
    items: z.preprocess(
      asIdList,
      z
        .array(idField("The pairs must be given by their ids."), { required_error: noPairs })
        .min(1, noPairs)
        .max(20, "Ask for at most 20 pairs at a time."),
    ),
    top: z.preprocess(
      asNumber,
      z
        .number({ invalid_type_error: topPairs, required_error: topPairs })
        .int(topPairs)
        .min(1, topPairs)
        .max(20, topPairs),
    ),
    raters: z.preprocess(
      asNumber,
      z
        .number({ invalid_type_error: moreGrades, required_error: moreGrades })
        .int(moreGrades)
        .min(1, moreGrades)
        .max(5, moreGrades),
    ),
  }),
  campaignInviteForm,
  ...invitationRowForms,
).superRefine((form, ctx) => {
  if (form.intent === "update") expertsCoverRaters(form, ctx);
});

export type CampaignPageForm = z.output<typeof campaignPageSchema>;

/**
 * The forms of an expert's task page: an autosaved grade (the save queue posts `intent=grade`; a post
 * without an intent is a grade too, as the queue of an older page sends it) and Finish.
 */
export const taskSchema = z.preprocess(
  (value) =>
    value && typeof value === "object" && !("intent" in value) ? { ...value, intent: "grade" } : value,
  intentSchema(gradeSchema.extend({ intent: z.literal("grade") }), z.object({ intent: z.literal("finish") })),
);

export type TaskForm = z.output<typeof taskSchema>;
