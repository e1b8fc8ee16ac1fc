import { validateEvent, type OnlineEvent } from "../online/events";

export interface LineError {
  line: number;
  message: string;
}

/**
 * Reads an interleaved experiment's JSONL events with the events' own rules (`validateEvent`) plus
 * interleaving's: every impression carries `teams`. Each good event goes to `visit` as it is read
 * (so a million parsed events need not all live at once); every bad line is returned with its number
 * (from 1, blank lines counted) and reason.
 */
export function readInterleavedJsonl(text: string, visit: (event: OnlineEvent) => void): LineError[] {
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
    const result = parseLine(raw);
    if (typeof result === "string") errors.push({ line, message: result });
    else visit(result);
  }
  return errors;
}

/** One non-blank line as an interleaved experiment's event, or why it is not one. */
export function parseLine(raw: string): OnlineEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return `is not valid JSON (${(error as Error).message})`;
  }
  const result = validateEvent(value);
  if (!result.ok) return result.problems.join("; ");
  if (result.event.type === "impression" && result.event.teams === undefined)
    return "an interleaved impression needs teams (the system that placed each item)";
  return result.event;
}

/** The same, collecting the events. */
export function parseInterleavedJsonl(text: string): { events: OnlineEvent[]; errors: LineError[] } {
  const events: OnlineEvent[] = [];
  const errors = readInterleavedJsonl(text, (e) => events.push(e));
  return { events, errors };
}
