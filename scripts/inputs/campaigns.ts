import { z } from "zod";
import { idField } from "./ids";

/** A rating campaign as an admin or a script creates it. */
export const campaignSchema = z
  .object({
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
  })
  .superRefine((c, ctx) => {
    if (new Set(c.experts.map((e) => e.toLowerCase())).size < c.raters)
      ctx.addIssue({
        code: "custom",
        path: ["experts"],
        message: `${c.raters} raters per proposal need at least ${c.raters} experts`,
      });
  });

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
