import { CreditBuilder, type CreditTotals } from "./credit";
import { readInterleavedJsonl, type LineError } from "./parse";
import { interleavingResult, type CreditKind, type InterleavingResult } from "./results";
import type { BootstrapOptions } from "../stats/bootstrap";
import { multileavingResult, type MultileavingResult } from "./multileave-results";
import { listMarginaliser, type ListRow } from "./marginalise";

export { teamDraft } from "./team-draft";
export { CreditBuilder, mergeCreditTotals, sessionCredits } from "./credit";
export { interleavingResult, sessionOutcome, winRate } from "./results";
export { parseInterleavedJsonl, readInterleavedJsonl } from "./parse";
export { teamDraftMultileave } from "./multileave";
export { multileavingResult } from "./multileave-results";
export { probabilisticInterleave, positionPosteriors, marginalisedOutcome } from "./probabilistic";
export { listMarginaliser } from "./marginalise";

export type InterleaveOptions = BootstrapOptions & {
  control?: string;
  credit?: CreditKind;
  /** Probabilistic interleaving: the two systems' ranked lists, for the marginalised credit. */
  lists?: ListRow[];
};

/** Data-quality counts beside the result: what the rules set aside, never silently. */
export interface InterleaveQuality {
  events: number;
  duplicateEvents: number;
  sessionsWithoutImpression: number;
  eventsAboutUnshownCandidates: number;
  /** Probabilistic interleaving: sessions the lists do not explain, left out. */
  sessionsWithoutLists?: number;
}

export type InterleaveOutcome =
  | { ok: true; result: InterleavingResult; quality: InterleaveQuality }
  | { ok: true; multileaving: MultileavingResult; quality: InterleaveQuality }
  | { ok: false; errors: LineError[] }
  | { ok: false; problem: string };

/** `assay interleave` on the text of a JSONL file (see `resultFromCredit`). */
export function interleaveText(text: string, options: InterleaveOptions = {}): InterleaveOutcome {
  const credit = creditOfText(text, options);
  return credit.ok ? resultFromCredit(credit.totals, options) : credit;
}

export type CreditOutcome =
  { ok: true; totals: CreditTotals } | { ok: false; errors: LineError[] } | { ok: false; problem: string };

/**
 * The sessions' credit of a JSONL text: by the teams, or with `options.lists` (probabilistic
 * interleaving) marginalised over the two systems' lists; or its bad lines, or why the lists cannot
 * credit it.
 */
export function creditOfText(text: string, options: InterleaveOptions = {}): CreditOutcome {
  const builder = new CreditBuilder();
  const errors = readInterleavedJsonl(text, (e) => builder.add(e));
  if (errors.length) return { ok: false, errors };
  const plain = builder.build();
  if (!options.lists) return { ok: true, totals: plain };
  // Probabilistic interleaving: the same sessions, credited by the marginalised outcome.
  const { systems } = plain;
  if (systems.length !== 2)
    return {
      ok: false,
      problem: `Probabilistic interleaving compares two systems, but the impressions' teams name ${systems.length} (${systems.slice(0, 5).join(", ")}).`,
    };
  const control = options.control ?? systems[0];
  const challenger = systems.find((s) => s !== control) ?? systems[1];
  if (!options.lists.some((r) => r.system === control) || !options.lists.some((r) => r.system === challenger))
    return {
      ok: false,
      problem: `The lists need both systems' lists (${control} and ${challenger}); they hold ${[...new Set(options.lists.map((r) => r.system))].slice(0, 5).join(", ") || "none"}.`,
    };
  return { ok: true, totals: builder.build(listMarginaliser(options.lists, [control, challenger])) };
}

/**
 * The result of an experiment's sessions' credit, or one sentence on why the events do not make one
 * interleaved comparison (several experiments, fewer than two systems, an unknown control). The
 * control is `options.control`, else the first system by name. Impressions whose teams name three or
 * more systems are a multileaved log: its result is the preference matrix and ranking, the control
 * (if given) first.
 */
export function resultFromCredit(
  totals: CreditTotals,
  options: InterleaveOptions = {},
): Exclude<InterleaveOutcome, { errors: LineError[] }> {
  const { experiments, systems } = totals;
  if (experiments.length > 1)
    return {
      ok: false,
      problem: `The events belong to ${experiments.length} experiments (${experiments.slice(0, 5).join(", ")}); give one experiment's events.`,
    };
  if (systems.length < 2)
    return {
      ok: false,
      problem: `Interleaving compares two or more systems, but the impressions' teams name ${systems.length}${systems.length ? ` (${systems[0]})` : ""}.`,
    };
  if (options.control !== undefined && !systems.includes(options.control))
    return {
      ok: false,
      problem: `The control ${options.control} is not one of the teams (${systems.join(", ")}).`,
    };
  const control = options.control ?? systems[0];
  const { events, duplicateEvents, sessionsWithoutImpression, eventsAboutUnshownCandidates } = totals;
  const quality = {
    events,
    duplicateEvents,
    sessionsWithoutImpression,
    eventsAboutUnshownCandidates,
    ...(totals.sessionsWithoutLists !== undefined
      ? { sessionsWithoutLists: totals.sessionsWithoutLists }
      : {}),
  };
  if (systems.length > 2) {
    const ordered = [control, ...systems.filter((s) => s !== control)];
    return {
      ok: true,
      multileaving: multileavingResult(totals.sessions, { ...options, systems: ordered }),
      quality,
    };
  }
  const challenger = systems.find((s) => s !== control)!;
  return {
    ok: true,
    result: interleavingResult(totals.sessions, { ...options, control, challenger }),
    quality,
  };
}
