import { z } from "zod";
import { asIdList, asNumber, confirmField, intentSchema } from "./forms";
import { idField } from "./ids";
import { analysisSettingsSchema } from "./analysis-settings";
import { INTERLEAVING_METHODS } from "./interleaving-methods";

const slug = (field: string) =>
  z
    .string({ required_error: `${field} is missing` })
    .trim()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/,
      `${field} must be 1–63 letters, digits, dots, dashes or underscores`,
    );

export const armSchema = z.object({
  key: slug("arm key"),
  system: z.string({ required_error: "arm system is missing" }).trim().min(1, "arm system is missing"),
  weight: z.coerce
    .number({ invalid_type_error: "arm weight must be a number" })
    .positive("arm weight must be above 0"),
});

const experimentFields = {
  key: slug("key"),
  name: z.string({ required_error: "name is missing" }).trim().min(1, "name is missing").max(200),
  kind: z
    .enum(["ab", "interleaving"], { errorMap: () => ({ message: "kind must be ab or interleaving" }) })
    .default("ab"),
  method: z
    .enum(INTERLEAVING_METHODS, {
      errorMap: () => ({ message: `method must be one of ${INTERLEAVING_METHODS.join(", ")}` }),
    })
    .default("team-draft"),
  arms: z.array(armSchema).min(2, "an experiment needs at least two arms").max(10, "at most 10 arms"),
  control: z.string({ required_error: "choose the control arm" }).trim().min(1, "choose the control arm"),
  coverage: z.coerce
    .number()
    .min(0, "coverage must be between 0 and 1")
    .max(1, "coverage must be between 0 and 1")
    .default(1),
  seed: z.string().trim().max(200).optional(),
  committeeCap: z.coerce.number().int("the committee cap must be a whole number").min(1).max(50).default(5),
  scope: z.enum(["all", "subject", "list"]).default("all"),
  subject: z.string().trim().optional(),
  proposals: z.array(z.string().trim().min(1)).optional(),
};

type ExperimentFields = z.output<z.ZodObject<typeof experimentFields>>;

/**
 * An interleaving experiment's arms: two different systems for team-draft and probabilistic
 * interleaving, three or more different systems for multileaving.
 */
function checkInterleavingArms(e: ExperimentFields, ctx: z.RefinementCtx) {
  const n = e.arms.length;
  if (e.method === "multileaving" && n < 3)
    ctx.addIssue({
      code: "custom",
      path: ["arms"],
      message: `multileaving compares three or more systems, not ${n}; choose team-draft interleaving for two`,
    });
  if (e.method !== "multileaving" && n !== 2)
    ctx.addIssue({
      code: "custom",
      path: ["arms"],
      message: `${e.method} interleaving compares exactly two systems, not ${n}${n > 2 ? "; choose multileaving for three or more" : ""}`,
    });
  const systems = e.arms.map((a) => a.system);
  const twice = systems.find((s, i) => systems.indexOf(s) !== i);
  if (twice !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["arms"],
      message: `an interleaving experiment needs different systems, not ${twice} twice`,
    });
}

/** The rules across fields: distinct arm keys, two arms to interleave, a known control, weights summing to 1. */
function checkExperiment(e: ExperimentFields, ctx: z.RefinementCtx) {
  const keys = e.arms.map((a) => a.key);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) ctx.addIssue({ code: "custom", path: ["arms"], message: `arm ${dup} is given twice` });
  if (e.kind === "interleaving") checkInterleavingArms(e, ctx);
  if (!keys.includes(e.control))
    ctx.addIssue({
      code: "custom",
      path: ["control"],
      message: `the control arm ${e.control} is not one of the arms (${keys.join(", ")})`,
    });
  const total = e.arms.reduce((s, a) => s + a.weight, 0);
  // GrowthBook's tolerance (scripts/assign/assign.ts validateWeights), so [0.33, 0.33, 0.33] is accepted here too.
  if (total < 0.99 || total > 1.01) {
    ctx.addIssue({
      code: "custom",
      path: ["arms"],
      message: `arm weights must sum to 1, within 0.99 to 1.01 (they sum to ${Number(total.toFixed(6))})`,
    });
  }
  if (e.scope === "subject" && !e.subject)
    ctx.addIssue({ code: "custom", path: ["subject"], message: "a subject scope needs a subject" });
  if (e.scope === "list" && !e.proposals?.length)
    ctx.addIssue({
      code: "custom",
      path: ["proposals"],
      message: "a list scope needs at least one proposal",
    });
}

/** An experiment as an admin or a script creates it (CLI flags and the admin form alike). */
export const experimentSchema = z.object(experimentFields).superRefine(checkExperiment);

export type ExperimentInput = z.infer<typeof experimentSchema>;

/** `--arm A=baseline:0.5` */
export function parseArmFlag(value: string): z.input<typeof armSchema> {
  const match = /^([^=]+)=([^:]+):(.+)$/.exec(value.trim());
  if (!match) throw new Error(`--arm takes KEY=SYSTEM:WEIGHT, such as A=baseline:0.5; "${value}" is not one`);
  return { key: match[1], system: match[2], weight: match[3] as unknown as number };
}

const asList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];
const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The admin's experiment form as posted: the arms as parallel fields armKey/armSystem/armWeight (blank
 * rows ignored) and the control as the index of its row, the proposals as one text of ids, the scope
 * from which of subject and proposals is filled.
 */
function experimentFromForm(form: Record<string, unknown>) {
  const systems = asList(form.armSystem);
  const weights = asList(form.armWeight);
  const rows = asList(form.armKey).map((key, i) => ({
    key: text(key),
    system: systems[i],
    weight: asNumber(text(weights[i])),
  }));
  const controlRow = rows[Number(form.controlIndex ?? 0)];
  const arms = rows.filter((a) => a.key.trim() !== "");
  const subject = text(form.subject);
  const proposals = asIdList(text(form.proposals));
  return {
    key: form.key,
    name: form.name,
    kind: form.kind || "ab",
    method: form.method || "team-draft",
    arms,
    control: controlRow?.key.trim() || arms[0]?.key,
    coverage: asNumber(form.coverage || "1"),
    seed: form.seed || undefined,
    committeeCap: asNumber(form.committeeCap || "5"),
    scope: proposals ? "list" : subject ? "subject" : "all",
    subject: subject || undefined,
    proposals,
  };
}

const fromForm = (value: unknown) =>
  value && typeof value === "object" ? experimentFromForm(value as Record<string, unknown>) : value;

/** The create form of the experiments page, read into the one experiment schema. */
export const experimentFormSchema = z.preprocess(fromForm, experimentSchema);

const expiresInDays = "Give the days until the key expires: a whole number from 1 to 3,650, or nothing.";

/**
 * The forms of an admin's experiment page, one per intent: edit or delete the draft, start, stop,
 * create an API key (optionally expiring), revoke one, set how the result is read (`analysis`).
 */
export const experimentPageSchema = z.preprocess(
  (value) =>
    value && typeof value === "object" && (value as { intent?: unknown }).intent === "update"
      ? { ...experimentFromForm(value as Record<string, unknown>), intent: "update" }
      : value,
  intentSchema(
    z.object({ intent: z.literal("update"), ...experimentFields }),
    z.object({ intent: z.literal("delete"), confirmed: confirmField("Confirm deleting the draft.") }),
    z.object({ intent: z.literal("start") }),
    z.object({ intent: z.literal("stop"), confirmed: confirmField("Confirm stopping the experiment.") }),
    z.object({ intent: z.literal("restart") }),
    z.object({
      intent: z.literal("createKey"),
      expiresInDays: z.coerce
        .number({ invalid_type_error: expiresInDays })
        .int(expiresInDays)
        .min(1, expiresInDays)
        .max(3650, expiresInDays)
        .optional(),
    }),
    z.object({
      intent: z.literal("revokeKey"),
      keyId: idField("Choose the key to revoke."),
      confirmed: confirmField("Confirm revoking the key."),
    }),
    analysisSettingsSchema.extend({ intent: z.literal("analysis") }),
  ).superRefine((form, ctx) => {
    if (form.intent === "update") checkExperiment(form, ctx);
  }),
);

export type ExperimentPageForm = z.output<typeof experimentPageSchema>;
