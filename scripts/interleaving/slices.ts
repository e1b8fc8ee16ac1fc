/**
 * An interleaving experiment's result per slice (the subject of a session's proposal, or a convener
 * attribute's value): each slice is read exactly as the whole experiment is (`interleavingResult`: the
 * challenger's win rate, its bootstrap interval over conveners, the sign-test p), by click and by
 * adoption credit; a slice with fewer conveners than the A/B slices' minimum says so instead of a number;
 * the p-values of every slice and both credits of a table are adjusted together (Holm, or
 * Benjamini–Hochberg), as the A/B page's slices and metrics are.
 */
import { adjustPValues, type Correction } from "../stats/multiple-testing";
import { DEFAULT_MIN_SLICE_UNITS } from "../online/slices";
import { NO_VALUE_SLICE } from "../online/slice-names";
import { interleavingResult, type CreditKind, type InterleavingResult } from "./results";
import type { ProposalCredit, SessionCredit } from "./credit";

/** The slice of a session whose proposal or subject is unknown (as the A/B page's subject slices). */
export const UNKNOWN_SUBJECT_SLICE = "(unknown)";

export interface InterleavingSliceCredit {
  credit: CreditKind;
  result: InterleavingResult;
  /** Sessions where one system earned more credit or both the same non-zero credit (wins + ties). */
  withPreference: number;
  adjustedP: number | null;
}

export type InterleavingSlice =
  | { slice: string; sessions: number; conveners: number; tooFew: true; reason: string }
  | { slice: string; sessions: number; conveners: number; tooFew: false; credits: InterleavingSliceCredit[] };

export interface InterleavingSlicesTable {
  slices: InterleavingSlice[];
  /** How many p-values were adjusted together (slices with enough conveners × credits with a p). */
  comparisons: number;
  correction: Correction;
}

export interface InterleavingSliceOptions {
  control: string;
  challenger: string;
  B: number;
  seed: string;
  /** Fewer conveners than this in a slice: "too few" (the A/B slices' minimum by default). */
  minUnits?: number;
}

const CREDITS: CreditKind[] = ["click", "adopt"];

/** Sessions grouped by `keyOf`, slices in name order. */
export function groupSessions<S>(sessions: readonly S[], keyOf: (s: S) => string): Map<string, S[]> {
  const groups = new Map<string, S[]>();
  for (const s of sessions) {
    const key = keyOf(s);
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A slice's sessions and conveners, and either why it is too thin to read or what `read` makes of it. */
export function readSlice<R extends object>(
  slice: string,
  sessions: readonly { unit: string }[],
  minUnits: number | undefined,
  read: () => R,
): { slice: string; sessions: number; conveners: number } & (
  { tooFew: true; reason: string } | ({ tooFew: false } & R)
) {
  const least = minUnits ?? DEFAULT_MIN_SLICE_UNITS;
  const conveners = new Set(sessions.map((s) => s.unit)).size;
  const counts = { slice, sessions: sessions.length, conveners };
  if (conveners < least)
    return { ...counts, tooFew: true, reason: `too few conveners: ${conveners}, at least ${least} needed` };
  return { ...counts, tooFew: false, ...read() };
}

/**
 * Each slice's result by both credits, adjusted both ways (Holm and Benjamini–Hochberg) so a page's
 * choice needs no new computation: the results do not depend on the correction, only the adjusted p does.
 * Each slice's interval is its own bootstrap with the experiment's B and seed.
 */
export function interleavingSlices(
  slices: ReadonlyMap<string, readonly SessionCredit[]>,
  options: InterleavingSliceOptions,
): { holm: InterleavingSlicesTable; bh: InterleavingSlicesTable } {
  const { control, challenger, B, seed } = options;
  const decided: InterleavingSlice[] = [...slices].map(([slice, sessions]) =>
    readSlice(slice, sessions, options.minUnits, () => ({
      credits: CREDITS.map((credit) => {
        const result = interleavingResult(sessions, { control, challenger, credit, B, seed });
        return { credit, result, withPreference: result.sessions - result.noPreference, adjustedP: null };
      }),
    })),
  );
  return { holm: adjusted(decided, "holm"), bh: adjusted(decided, "bh") };
}

/** The slices with every sign-test p adjusted together by `correction` (copies: the input stays as it was). */
function adjusted(decided: readonly InterleavingSlice[], correction: Correction): InterleavingSlicesTable {
  const slices: InterleavingSlice[] = decided.map((s) =>
    s.tooFew ? s : { ...s, credits: s.credits.map((c) => ({ ...c })) },
  );
  const all = slices.flatMap((s) => (s.tooFew ? [] : s.credits));
  const ps = adjustPValues(
    all.map((c) => c.result.pValue),
    correction,
  );
  all.forEach((c, i) => (c.adjustedP = ps[i]));
  return { slices, comparisons: ps.filter((p) => p !== null).length, correction };
}

export type { ProposalCredit } from "./credit";

export interface InterleavingSlicesInput extends InterleavingSliceOptions {
  sessions: ProposalCredit[];
  /** Proposal (external id) → its subject's key. */
  subjectOf: ReadonlyMap<string, string>;
  /** Imported convener attribute → unit → value. */
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * The page's slice tables: by the subject of each session's proposal ("(unknown)" when not known), and by
 * each imported convener attribute ("(no value)" for a convener without one), each a family of its own.
 */
export function interleavingSlicesOfPage(input: InterleavingSlicesInput) {
  const { sessions, subjectOf, attributes, ...options } = input;
  return slicesOfPage({ sessions, subjectOf, attributes }, (groups) => interleavingSlices(groups, options));
}

/**
 * A page's slice tables of any result: `table` of the sessions grouped by the subject of each one's
 * proposal, then of them grouped by each imported convener attribute (attributes in name order).
 */
export function slicesOfPage<S extends ProposalCredit, T>(
  input: Pick<InterleavingSlicesInput, "subjectOf" | "attributes"> & { sessions: readonly S[] },
  table: (groups: Map<string, S[]>) => T,
): { subject: { attribute: string } & T; byConvener: ({ attribute: string } & T)[] } {
  const { sessions, subjectOf, attributes } = input;
  const bySubject = groupSessions(sessions, (s) => subjectOf.get(s.proposal) ?? UNKNOWN_SUBJECT_SLICE);
  return {
    subject: { attribute: "subject", ...table(bySubject) },
    byConvener: [...attributes.keys()].sort().map((attribute) => {
      const values = attributes.get(attribute)!;
      return { attribute, ...table(groupSessions(sessions, (s) => values.get(s.unit) ?? NO_VALUE_SLICE)) };
    }),
  };
}
