import { z } from "zod";

export const eventTypes = ["impression", "click", "adopt", "unadopt"] as const;
export type EventType = (typeof eventTypes)[number];

const id = (field: string) => z.string({ required_error: `${field} is missing`, invalid_type_error: `${field} must be a string` }).min(1, `${field} is empty`).max(200, `${field} is longer than 200 characters`);

/**
 * One convener interaction as DESIGN.md's Interchange section defines it, for files, the event API and
 * the CLI alike. `candidateId` belongs to click/adopt/unadopt, `items` (the displayed order) to impressions.
 */
export const eventSchema = z
  .object({
    eventId: id("eventId"),
    type: z.enum(eventTypes, { errorMap: () => ({ message: `type must be one of ${eventTypes.join(", ")}` }) }),
    at: z
      .string({ required_error: "at is missing", invalid_type_error: "at must be an ISO 8601 timestamp" })
      .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), "at must be an ISO 8601 timestamp"),
    experiment: id("experiment"),
    arm: id("arm"),
    unitId: id("unitId"),
    sessionId: id("sessionId"),
    proposalId: id("proposalId"),
    candidateId: id("candidateId").optional(),
    items: z.array(id("an item"), { invalid_type_error: "items must be a list of candidate ids" }).max(1000, "items has more than 1000 candidates").optional(),
  })
  .superRefine((e, ctx) => {
    if (e.type === "impression") {
      if (!e.items) ctx.addIssue({ code: "custom", message: "an impression needs items (the candidate ids in displayed order)", path: ["items"] });
      else if (new Set(e.items).size !== e.items.length) ctx.addIssue({ code: "custom", message: "items repeats a candidate", path: ["items"] });
    } else if (!e.candidateId) ctx.addIssue({ code: "custom", message: `a ${e.type} needs candidateId`, path: ["candidateId"] });
  });

export type OnlineEvent = z.infer<typeof eventSchema>;

/** Parses a JSONL file of events; every bad line is reported with its number and reason. */
export function parseEventsJsonl(text: string): { events: OnlineEvent[]; errors: { line: number; message: string }[] } {
  const events: OnlineEvent[] = [];
  const errors: { line: number; message: string }[] = [];
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    line++;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ line, message: `is not valid JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = eventSchema.safeParse(value);
    if (parsed.success) events.push(parsed.data);
    else errors.push({ line, message: parsed.error.issues.map((i) => i.message).join("; ") });
  }
  return { events, errors };
}
