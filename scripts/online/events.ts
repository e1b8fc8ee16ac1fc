import { z } from "zod";
import { eventTimeProblem } from "./event-time";

/**
 * `finish` (optional: files and the API need not send it) marks the moment a convener finished the
 * proposal's session, which the guardrails' time to finish and empty-committee share read.
 */
export const eventTypes = ["impression", "click", "adopt", "unadopt", "finish"] as const;
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
  /** On an interleaved impression: the system (team) that placed each item, one per item. */
  teams?: string[];
}

const idFields = ["eventId", "experiment", "arm", "unitId", "sessionId", "proposalId"] as const;
export const MAX_ID_LENGTH = 200;
export const MAX_ITEMS = 1000;

// In lib.es2024, which the project's TypeScript settings do not load; Node 20 has it.
const isWellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Why a string field cannot be stored as sent, or null. PostgreSQL text holds no NUL, and a lone
 * UTF-16 surrogate (`\ud800`) has no UTF-8 form: the driver would store U+FFFD, so `sur-\ud800` and
 * `sur-\udbff` would become one id. Lengths count UTF-16 code units, as JavaScript does.
 */
function textProblem(value: unknown, field: string): string | null {
  if (value === undefined) return `${field} is missing`;
  if (typeof value !== "string") return `${field} must be a string`;
  if (value.length === 0) return `${field} is empty`;
  if (value.length > MAX_ID_LENGTH) return `${field} is longer than ${MAX_ID_LENGTH} characters`;
  if (value.includes("\u0000")) return `${field} contains a NUL character`;
  if (!isWellFormed(value))
    return `${field} contains a lone UTF-16 surrogate (not a character; send well-formed Unicode)`;
  return null;
}

/**
 * The rules of one convener interaction (DESIGN.md, Interchange), for files, the event API and the
 * CLI alike, checked as PostgreSQL will store the event so that the database never refuses one that
 * passes: the id fields are non-empty, well-formed strings without NUL of at most 200 characters,
 * `at` an ISO 8601 time with a UTC offset on the calendar of 2000–2100 (`eventTimeProblem`),
 * `candidateId` present on click/adopt/unadopt (a finish needs neither) and `items` (the displayed order, no repeats, at most
 * 1000) on impressions, with `teams` optional beside `items` (an interleaved list: one non-empty system key per
 * item). Hand-written rather than a zod object because `assay online` checks a million
 * events in a second with it; `eventSchema` wraps it for the places that speak zod.
 */
export function validateEvent(
  value: unknown,
): { ok: true; event: OnlineEvent } | { ok: false; problems: string[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, problems: ["an event must be a JSON object"] };
  const e = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of idFields) {
    const problem = textProblem(e[field], field);
    if (problem) problems.push(problem);
  }
  if (!eventTypes.includes(e.type as EventType))
    problems.push(`type must be one of ${eventTypes.join(", ")}`);
  if (typeof e.at !== "string")
    problems.push(e.at === undefined ? "at is missing" : "at must be a string such as 2025-03-01T10:00:00Z");
  else {
    const problem = eventTimeProblem(e.at);
    if (problem) problems.push(problem);
  }
  if (e.candidateId !== undefined) {
    const problem = textProblem(e.candidateId, "candidateId");
    if (problem) problems.push(problem);
  }
  if (e.items !== undefined) {
    const problem = itemsProblem(e.items);
    if (problem) problems.push(problem);
  }
  if (e.teams !== undefined) {
    const problem = teamsProblem(e.teams, e.items);
    if (problem) problems.push(problem);
  }
  if (e.type === "impression" && e.items === undefined)
    problems.push("an impression needs items (the candidate ids in displayed order)");
  if (
    e.type !== "impression" &&
    e.type !== "finish" &&
    eventTypes.includes(e.type as EventType) &&
    e.candidateId === undefined
  )
    problems.push(`a ${e.type} needs candidateId`);
  if (problems.length > 0) return { ok: false, problems };
  // The checked object itself (fields not in the format are ignored downstream, never stored).
  return { ok: true, event: e as unknown as OnlineEvent };
}

function itemsProblem(items: unknown): string | null {
  if (!Array.isArray(items)) return "items must be a list of candidate ids";
  if (items.length > MAX_ITEMS) return `items has more than ${MAX_ITEMS} candidates`;
  for (let i = 0; i < items.length; i++) {
    const problem = textProblem(items[i], `item ${i + 1} of items`);
    if (problem) return problem;
  }
  if (new Set(items).size !== items.length) return "items repeats a candidate";
  return null;
}

/** Why an interleaved impression's teams do not fit its items, or null. */
function teamsProblem(teams: unknown, items: unknown): string | null {
  if (!Array.isArray(teams)) return "teams must be a list of system keys, one per item";
  if (!Array.isArray(items)) return "teams needs items (the team of each displayed candidate)";
  if (teams.length !== items.length)
    return `teams has ${teams.length} ${teams.length === 1 ? "entry" : "entries"} for ${items.length} item${items.length === 1 ? "" : "s"} (one team per item)`;
  for (let i = 0; i < teams.length; i++) {
    const problem = textProblem(teams[i], `team ${i + 1} of teams`);
    if (problem) return problem;
  }
  return null;
}

/** The same rules as a zod schema, for request bodies validated with zod. */
export const eventSchema = z.unknown().transform((value, ctx): OnlineEvent => {
  const result = validateEvent(value);
  if (result.ok) return result.event;
  for (const message of result.problems) ctx.addIssue({ code: "custom", message });
  return z.NEVER;
});

/** Parses a JSONL file of events; every bad line is reported with its number and reason. */
export function parseEventsJsonl(text: string): {
  events: OnlineEvent[];
  errors: { line: number; message: string }[];
} {
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
