/**
 * A multileaved experiment's result per slice (the subject of a session's proposal, or a convener
 * attribute's value): each slice is read exactly as the whole experiment is (`multileavingResult`: the
 * pairwise preference matrix with its bootstrap intervals over conveners and sign-test p, and the
 * Copeland ranking), by click and by adoption credit; a slice with fewer conveners than the A/B slices'
 * minimum says so instead of a number. The p-values of every slice, pair of systems and credit of a table
 * are adjusted together (Holm, or Benjamini–Hochberg), as the two-system slices' are.
 */
import { adjustPValues, type Correction } from "../stats/multiple-testing";
import type { SessionCredit } from "./credit";
import type { CreditKind } from "./results";
import { multileavingResult, type MultileavingResult } from "./multileave-results";
import { readSlice, slicesOfPage, type ProposalCredit } from "./slices";

export interface MultileavingSliceCredit {
  credit: CreditKind;
  result: MultileavingResult;
  /**
   * p adjusted across the table, one per pair of `result.pairs` (null where the pair had no session with
   * a preference). Both orders of a pair are one comparison (the sign test is the same), so they share it.
   */
  adjustedP: (number | null)[];
}

export type MultileavingSlice =
  | { slice: string; sessions: number; conveners: number; tooFew: true; reason: string }
  | { slice: string; sessions: number; conveners: number; tooFew: false; credits: MultileavingSliceCredit[] };

export interface MultileavingSlicesTable {
  slices: MultileavingSlice[];
  /** How many p-values were adjusted together (slices with enough conveners × unordered pairs with a p × credits). */
  comparisons: number;
  correction: Correction;
}

export interface MultileavingSliceOptions {
  /** The systems, the control first (the whole experiment's order). */
  systems: readonly string[];
  B: number;
  seed: string;
  /** Fewer conveners than this in a slice: "too few" (the A/B slices' minimum by default). */
  minUnits?: number;
}

const CREDITS: CreditKind[] = ["click", "adopt"];

/**
 * Each slice's preference matrix by both credits, adjusted both ways (Holm and Benjamini–Hochberg) so a
 * page's choice needs no new computation. Each slice's intervals are its own bootstrap with the
 * experiment's B and seed.
 */
export function multileavingSlices(
  slices: ReadonlyMap<string, readonly SessionCredit[]>,
  options: MultileavingSliceOptions,
): { holm: MultileavingSlicesTable; bh: MultileavingSlicesTable } {
  const { systems, B, seed } = options;
  const decided: MultileavingSlice[] = [...slices].map(([slice, sessions]) =>
    readSlice(slice, sessions, options.minUnits, () => ({
      credits: CREDITS.map((credit) => ({
        credit,
        result: multileavingResult(sessions, { systems, credit, B, seed }),
        adjustedP: [],
      })),
    })),
  );
  return { holm: adjusted(decided, "holm"), bh: adjusted(decided, "bh") };
}

/**
 * The slices with the p of every unordered pair adjusted together by `correction`, the pair's reverse
 * given the same adjusted p (copies: the input stays as it was).
 */
function adjusted(decided: readonly MultileavingSlice[], correction: Correction): MultileavingSlicesTable {
  const slices: MultileavingSlice[] = decided.map((s) =>
    s.tooFew ? s : { ...s, credits: s.credits.map((c) => ({ ...c, adjustedP: [] })) },
  );
  const credits = slices.flatMap((s) => (s.tooFew ? [] : s.credits));
  // One comparison per unordered pair: the pair as it first appears (system before other in the order).
  const firsts = credits.map((c) => c.result.pairs.map((p) => isFirst(c.result.systems, p)));
  const ps = adjustPValues(
    credits.flatMap((c, i) => c.result.pairs.filter((_, j) => firsts[i][j]).map((p) => p.pValue)),
    correction,
  );
  let next = 0;
  credits.forEach((c, i) => {
    const ofPair = new Map<string, number | null>();
    c.result.pairs.forEach((p, j) => {
      if (firsts[i][j]) ofPair.set(pairKey(p.system, p.other), ps[next++]);
    });
    c.adjustedP = c.result.pairs.map((p) => ofPair.get(pairKey(p.system, p.other)) ?? null);
  });
  return { slices, comparisons: ps.filter((p) => p !== null).length, correction };
}

const isFirst = (systems: readonly string[], p: { system: string; other: string }) =>
  systems.indexOf(p.system) < systems.indexOf(p.other);

/** The same key for (a, b) and (b, a). */
const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * The multileaved page's slice tables: by the subject of each session's proposal ("(unknown)" when not
 * known), and by each imported convener attribute ("(no value)" for a convener without one), each a
 * family of its own.
 */
export function multileavingSlicesOfPage(
  input: MultileavingSliceOptions & {
    sessions: ProposalCredit[];
    /** Proposal (external id) → its subject's key. */
    subjectOf: ReadonlyMap<string, string>;
    /** Imported convener attribute → unit → value. */
    attributes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  },
) {
  const { sessions, subjectOf, attributes, ...options } = input;
  return slicesOfPage({ sessions, subjectOf, attributes }, (groups) => multileavingSlices(groups, options));
}
