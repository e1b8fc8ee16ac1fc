import { z } from "zod";
import { protocolCell } from "./protocol";

/**
 * One zod schema per importable entity. CSV cells arrive as strings and JSONL values as JSON types,
 * so each field accepts both and normalises them; the messages name the field and what was wrong.
 */
/**
 * The longest text each kind of field may hold, in characters: keys, ids, names, emails and affiliations
 * are short labels; titles and keyword lists a paragraph; abstracts and summaries a few pages. A 5 MB
 * "summary" is a mistake (a whole file pasted into a cell), not data to show to experts.
 */
export const fieldLimits = { short: 200, medium: 2_000, long: 20_000 } as const;

const tooLong = (field: string, max: number) =>
  `${field} is longer than ${max.toLocaleString("en")} characters`;

const text = (field: string, max: number = fieldLimits.short) =>
  z.preprocess(
    (v) => (typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : v),
    z
      .string({ required_error: `${field} is missing`, invalid_type_error: `${field} must be text` })
      .min(1, `${field} is empty`)
      .max(max, tooLong(field, max)),
  );

const optionalText = (field: string, max: number = fieldLimits.short) =>
  z.preprocess(
    (v) =>
      v === null || v === undefined
        ? ""
        : typeof v === "number"
          ? String(v)
          : typeof v === "string"
            ? v.trim()
            : v,
    z.string({ invalid_type_error: `${field} must be text` }).max(max, tooLong(field, max)),
  );

/** Keywords: a JSON array of strings, or one string separated by semicolons (CSV); 2,000 characters in all. */
const keywords = z.preprocess(
  (v) => (v === null || v === undefined ? [] : typeof v === "string" ? v.split(";") : v),
  z
    .array(z.string({ invalid_type_error: "keywords must be text" }), {
      invalid_type_error: "keywords must be a list or a ;-separated text",
    })
    .transform((list) => [...new Set(list.map((k) => k.trim()).filter(Boolean))])
    .refine((list) => list.join(";").length <= fieldLimits.medium, tooLong("keywords", fieldLimits.medium)),
);

const externalId = (field: string) => text(field);

const rank = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v === "" ? undefined : v),
  z
    .number({ required_error: "rank is missing", invalid_type_error: "rank must be a number" })
    .int("rank must be a whole number")
    .min(1, "rank must be 1 or more"),
);

const score = z.preprocess(
  (v) =>
    v === undefined || v === null || (typeof v === "string" && v.trim() === "")
      ? null
      : typeof v === "string"
        ? Number(v.trim())
        : v,
  z.number({ invalid_type_error: "score must be a number" }).finite("score must be a number").nullable(),
);

/** An optional non-negative measurement (latency, build time, memory); empty means none. */
const optionalAmount = (field: string) =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || (typeof v === "string" && v.trim() === "")
        ? null
        : typeof v === "string"
          ? Number(v.trim())
          : v,
    z
      .number({ invalid_type_error: `${field} must be a number` })
      .finite(`${field} must be a number`)
      .min(0, `${field} must be 0 or more`)
      .nullable(),
  );

/** An optional calendar date, YYYY-MM-DD (a real day: 2024-02-30 is refused); empty means none. */
const optionalDate = (field: string) =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || (typeof v === "string" && v.trim() === "")
        ? null
        : typeof v === "string"
          ? v.trim()
          : v,
    z
      .string({ invalid_type_error: `${field} must be a date (YYYY-MM-DD)` })
      .superRefine((d, ctx) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(d))
          ctx.addIssue({ code: "custom", message: `${field} must be a date written YYYY-MM-DD` });
        else if (
          Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ||
          !new Date(`${d}T00:00:00Z`).toISOString().startsWith(d)
        ) {
          ctx.addIssue({ code: "custom", message: `${field} is not a real calendar day` });
        }
      })
      .nullable(),
  );

export const subjectRow = z.object({ key: externalId("key"), name: text("name") });

export const proposalRow = z.object({
  external_id: externalId("external_id"),
  title: text("title", fieldLimits.medium),
  abstract: optionalText("abstract", fieldLimits.long),
  keywords,
  subject: optionalText("subject"),
  date: optionalDate("date"),
});

export const candidateRow = z.object({
  external_id: externalId("external_id"),
  name: text("name"),
  affiliation: optionalText("affiliation"),
  email: optionalText("email").pipe(
    z.union([z.literal(""), z.string().email("email is not a valid address")]),
  ),
  keywords,
  summary: optionalText("summary", fieldLimits.long),
  profile_date: optionalDate("profile_date"),
});

export const systemRow = z.object({
  key: externalId("key"),
  name: optionalText("name"),
  version: optionalText("version"),
  /** Optional: seconds to build the system's model, and its memory in MB (the source's third criterion). */
  build_seconds: optionalAmount("build_seconds"),
  memory_mb: optionalAmount("memory_mb"),
});

export const listItemRow = z.object({
  system: externalId("system"),
  proposal: externalId("proposal"),
  variant: optionalText("variant").transform((v) => v || "default"),
  rank,
  candidate: externalId("candidate"),
  score,
  /** Optional: the protocol (and seed) the system answered, `given-2:7`; set on the system. */
  protocol: optionalText("protocol").pipe(protocolCell),
  /** Optional: the list's prediction time in ms, on any of its rows (rows that give it must agree). */
  latency_ms: optionalAmount("latency_ms"),
});

export const goldRow = z.object({ proposal: externalId("proposal"), candidate: externalId("candidate") });

export const conflictRow = z.object({
  proposal: externalId("proposal"),
  candidate: externalId("candidate"),
  reason: optionalText("reason", fieldLimits.medium),
});

export const convenerRow = z.object({
  convener: text("convener").pipe(z.string().email("convener must be an email address")),
  proposal: externalId("proposal"),
});

/** A known grade of a pooled pair of a campaign (a gold item): the campaign by id, grades on the 1–4 scale. */
export const truthRow = z.object({
  campaign: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v === "" ? undefined : v),
    z
      .number({
        required_error: "campaign is missing",
        invalid_type_error: "campaign must be a campaign id (a number)",
      })
      .int("campaign must be a whole number")
      .min(1, "campaign must be 1 or more"),
  ),
  proposal: externalId("proposal"),
  candidate: externalId("candidate"),
  grade: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v === "" ? undefined : v),
    z
      .number({
        required_error: "grade is missing",
        invalid_type_error: "grade must be a number from 1 to 4",
      })
      .int("grade must be a whole number from 1 to 4")
      .min(1, "grade must be from 1 to 4 (the rating scale)")
      .max(4, "grade must be from 1 to 4 (the rating scale)"),
  ),
});

/**
 * A group attribute of a candidate (gender, country, career stage …): values as given, "unknown" a
 * value of its own. Sensitive: shown only to admins and analysts, and only for groups large enough.
 */
export const attributeRow = z.object({
  candidate: externalId("candidate"),
  attribute: text("attribute", 100),
  value: text("value"),
});

/**
 * An attribute of a convener (institution, seniority …), for slicing A/B results: the convener by the
 * email of a user with the convener role, or by the unit an experiment's events name (an external
 * application's conveners). Values as given, "unknown" a value of its own; sensitive as candidates' are.
 */
export const convenerAttributeRow = z.object({
  convener: text("convener"),
  attribute: text("attribute", 100),
  value: text("value"),
});

export const importSchemas = {
  subjects: subjectRow,
  proposals: proposalRow,
  candidates: candidateRow,
  systems: systemRow,
  lists: listItemRow,
  gold: goldRow,
  conveners: convenerRow,
  conflicts: conflictRow,
  truth: truthRow,
  attributes: attributeRow,
  "convener-attributes": convenerAttributeRow,
} as const;

export type ImportEntity = keyof typeof importSchemas;
export const importEntities = Object.keys(importSchemas) as ImportEntity[];
export const importEntitySchema = z.enum(importEntities as [ImportEntity, ...ImportEntity[]], {
  errorMap: () => ({ message: `entity must be one of ${importEntities.join(", ")}` }),
});

export const requiredColumns: Record<ImportEntity, string[]> = {
  subjects: ["key", "name"],
  proposals: ["external_id", "title"],
  candidates: ["external_id", "name"],
  systems: ["key"],
  lists: ["system", "proposal", "rank", "candidate"],
  gold: ["proposal", "candidate"],
  conveners: ["convener", "proposal"],
  conflicts: ["proposal", "candidate"],
  truth: ["campaign", "proposal", "candidate", "grade"],
  attributes: ["candidate", "attribute", "value"],
  "convener-attributes": ["convener", "attribute", "value"],
};

/** Every column a file of the entity may have, its schema's fields: the importer refuses any other. */
export const acceptedColumns = (entity: ImportEntity): string[] => Object.keys(importSchemas[entity].shape);

/** The columns a file of the entity may leave out, in the schema's order. */
export const optionalColumns = (entity: ImportEntity): string[] =>
  acceptedColumns(entity).filter((c) => !requiredColumns[entity].includes(c));

export const entityLabels: Record<ImportEntity, string> = {
  subjects: "subjects",
  proposals: "proposals",
  candidates: "candidates",
  systems: "systems",
  lists: "ranked-list items",
  gold: "gold committee members",
  conveners: "convener assignments",
  conflicts: "conflicts of interest",
  truth: "gold items of a campaign (known grades)",
  attributes: "candidate attributes",
  "convener-attributes": "convener attributes",
};
