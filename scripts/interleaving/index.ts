import { CreditBuilder, type CreditTotals } from "./credit";
import { readInterleavedJsonl, type LineError } from "./parse";
import { interleavingResult, type CreditKind, type InterleavingResult } from "./results";
import type { BootstrapOptions } from "../stats/bootstrap";

export { teamDraft } from "./team-draft";
export { CreditBuilder, mergeCreditTotals, sessionCredits } from "./credit";
export { interleavingResult, sessionOutcome, winRate } from "./results";
export { parseInterleavedJsonl, readInterleavedJsonl } from "./parse";

export type InterleaveOptions = BootstrapOptions & { control?: string; credit?: CreditKind };

/** Data-quality counts beside the result: what the rules set aside, never silently. */
export interface InterleaveQuality {
  events: number;
  duplicateEvents: number;
  sessionsWithoutImpression: number;
  eventsAboutUnshownCandidates: number;
}

export type InterleaveOutcome =
  | { ok: true; result: InterleavingResult; quality: InterleaveQuality }
  | { ok: false; errors: LineError[] }
  | { ok: false; problem: string };

/** `assay interleave` on the text of a JSONL file (see `resultFromCredit`). */
export function interleaveText(text: string, options: InterleaveOptions = {}): InterleaveOutcome {
  const builder = new CreditBuilder();
  const errors = readInterleavedJsonl(text, (e) => builder.add(e));
  if (errors.length) return { ok: false, errors };
  return resultFromCredit(builder.build(), options);
}

/**
 * The result of an experiment's sessions' credit, or one sentence on why the events do not make one
 * interleaved comparison (several experiments, not exactly two systems, an unknown control). The
 * control is `options.control`, else the first system by name.
 */
export function resultFromCredit(totals: CreditTotals, options: InterleaveOptions = {}): InterleaveOutcome {
  const { experiments, systems } = totals;
  if (experiments.length > 1)
    return {
      ok: false,
      problem: `The events belong to ${experiments.length} experiments (${experiments.slice(0, 5).join(", ")}); give one experiment's events.`,
    };
  if (systems.length !== 2)
    return {
      ok: false,
      problem: `Interleaving compares two systems, but the impressions' teams name ${systems.length}${systems.length ? ` (${systems.slice(0, 5).join(", ")})` : ""}.`,
    };
  if (options.control !== undefined && !systems.includes(options.control))
    return {
      ok: false,
      problem: `The control ${options.control} is not one of the teams (${systems.join(", ")}).`,
    };
  const control = options.control ?? systems[0];
  const challenger = systems.find((s) => s !== control)!;
  const result = interleavingResult(totals.sessions, { ...options, control, challenger });
  const { events, duplicateEvents, sessionsWithoutImpression, eventsAboutUnshownCandidates } = totals;
  return {
    ok: true,
    result,
    quality: { events, duplicateEvents, sessionsWithoutImpression, eventsAboutUnshownCandidates },
  };
}
