import { validateEvent, type OnlineEvent } from "../online/events";

/** A bad line of an events file, numbered from the start of the part (of two) it is in. */
export interface PartLineError {
  part: number;
  line: number;
  message: string;
}

/**
 * The `parse(start, end, line, origin)` both `assay online` threads hand to `parseOwnLines`: the line's
 * bytes as JSON, then validated as an event; a valid event goes to `onEvent` with the part it came from,
 * a bad line to `errors` with what is wrong (not JSON, or the event's problems).
 */
export function eventLineParser(
  bytes: Buffer,
  errors: PartLineError[],
  onEvent: (event: OnlineEvent, origin: number) => void,
) {
  return (start: number, end: number, line: number, origin: number) => {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString("utf8", start, end));
    } catch (error) {
      errors.push({ part: origin, line, message: `is not valid JSON (${(error as Error).message})` });
      return;
    }
    const result = validateEvent(value);
    if (result.ok) onEvent(result.event, origin);
    else errors.push({ part: origin, line, message: result.problems.join("; ") });
  };
}
