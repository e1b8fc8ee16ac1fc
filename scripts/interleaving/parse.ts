import { validateEvent, type OnlineEvent } from "../metrics/events";

export interface LineError {
  line: number;
  message: string;
}

/**
 * Parses an interleaved experiment's JSONL events with the events' own rules (`validateEvent`) plus
 * interleaving's: every impression carries `teams`. Every bad line is reported with its number
 * (from 1, blank lines counted) and reason.
 */
export function parseInterleavedJsonl(text: string): { events: OnlineEvent[]; errors: LineError[] } {
  const events: OnlineEvent[] = [];
  const errors: LineError[] = [];
  let start = 0;
  let line = 0;
  while (start < text.length) {
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
    if (!result.ok) errors.push({ line, message: result.problems.join("; ") });
    else if (result.event.type === "impression" && result.event.teams === undefined) errors.push({ line, message: "an interleaved impression needs teams (the system that placed each item)" });
    else events.push(result.event);
  }
  return { events, errors };
}
