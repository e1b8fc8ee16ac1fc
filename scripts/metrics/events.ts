import { z } from "zod";

export const eventTypes = ["impression", "click", "adopt", "unadopt"] as const;
export type EventType = (typeof eventTypes)[number];

export interface OnlineEvent {
  eventId: string;
  type: EventType;
  at: string;
  experiment: string;
  arm: string;
  unitId: string;
  sessionId: string;
  proposalId: string;
  candidateId?: string;
  items?: string[];
}

const idFields = ["eventId", "experiment", "arm", "unitId", "sessionId", "proposalId"] as const;
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T/;

function idProblem(value: unknown, field: string): string | null {
  if (value === undefined) return `${field} is missing`;
  if (typeof value !== "string") return `${field} must be a string`;
  if (value.length === 0) return `${field} is empty`;
  if (value.length > 200) return `${field} is longer than 200 characters`;
  if (value.includes("\u0000")) return `${field} contains a NUL character`;
  return null;
}

/**
 * The rules of one convener interaction (DESIGN.md, Interchange), for files, the event API and the
 * CLI alike: the id fields are non-empty strings of at most 200 characters, `at` an ISO 8601 time,
 * `candidateId` present on click/adopt/unadopt and `items` (the displayed order, no repeats) on
 * impressions. Hand-written rather than a zod object because `assay online` checks a million events
 * in a second with it; `eventSchema` wraps it for the places that speak zod.
 */
export function validateEvent(value: unknown): { ok: true; event: OnlineEvent } | { ok: false; problems: string[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, problems: ["an event must be a JSON object"] };
  const e = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of idFields) {
    const problem = idProblem(e[field], field);
    if (problem) problems.push(problem);
  }
  if (!eventTypes.includes(e.type as EventType)) problems.push(`type must be one of ${eventTypes.join(", ")}`);
  if (typeof e.at !== "string") problems.push(e.at === undefined ? "at is missing" : "at must be an ISO 8601 timestamp");
  else if (!isoTimestamp.test(e.at) || Number.isNaN(Date.parse(e.at))) problems.push("at must be an ISO 8601 timestamp");
  if (e.candidateId !== undefined) {
    const problem = idProblem(e.candidateId, "candidateId");
    if (problem) problems.push(problem);
  }
  if (e.items !== undefined) {
    if (!Array.isArray(e.items)) problems.push("items must be a list of candidate ids");
    else if (e.items.length > 1000) problems.push("items has more than 1000 candidates");
    else if (e.items.some((item) => idProblem(item, "an item"))) problems.push("every item must be a non-empty string of at most 200 characters");
    else if (new Set(e.items).size !== e.items.length) problems.push("items repeats a candidate");
  }
  if (e.type === "impression" && e.items === undefined) problems.push("an impression needs items (the candidate ids in displayed order)");
  if (e.type !== "impression" && eventTypes.includes(e.type as EventType) && e.candidateId === undefined) problems.push(`a ${e.type} needs candidateId`);
  if (problems.length > 0) return { ok: false, problems };
  // The checked object itself (fields not in the format are ignored downstream, never stored).
  return { ok: true, event: e as unknown as OnlineEvent };
}

/** The same rules as a zod schema, for request bodies validated with zod. */
export const eventSchema = z.unknown().transform((value, ctx): OnlineEvent => {
  const result = validateEvent(value);
  if (result.ok) return result.event;
  for (const message of result.problems) ctx.addIssue({ code: "custom", message });
  return z.NEVER;
});

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
    const result = validateEvent(value);
    if (result.ok) events.push(result.event);
    else errors.push({ line, message: result.problems.join("; ") });
  }
  return { events, errors };
}
