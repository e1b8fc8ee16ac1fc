/**
 * What the offline report adds about the integrity of an evaluation (issue #13, tier 1 items 4 and 6):
 * the evaluation window, conflicted candidates in the lists (and a convener's view without them), and
 * profiles dated after their proposal (possible leakage). Pure: arrays and maps in, figures out.
 */
import {
  conflictedSlots,
  conflictsAtK,
  withoutConflicted,
  type ConflictedSlot,
  type ConflictMap,
  type ConflictsAtK,
  type ProposalList,
} from "./conflicts";
import {
  inWindow,
  leakageAtK,
  leakedSlots,
  type EvaluationWindow,
  type LeakageAtK,
  type LeakedSlot,
} from "./time-window";
import type { OfflineInput, OfflineOptions } from "./report";

export interface WindowSummary extends EvaluationWindow {
  /** Proposals kept by the window, and how many of all proposals carry no date. */
  proposals: number;
  undated: number;
}

export interface SystemIntegrity {
  /** COI@K of the lists as the system returned them (before any exclusion). */
  conflicts: ConflictsAtK[];
  conflictedSlots: ConflictedSlot[];
  leakage: LeakageAtK[];
  leakedSlots: LeakedSlot[];
}

const noConflicts: ConflictMap = new Map();

/**
 * The input the measures are computed on: proposals outside the window left out, and, with
 * `excludeConflicts`, every list without its conflicted candidates (ranks closed up).
 */
export function prepareOfflineInput(
  input: OfflineInput,
  options: Pick<OfflineOptions, "from" | "to" | "excludeConflicts">,
): { input: OfflineInput; window: WindowSummary } {
  const window = { from: options.from ?? null, to: options.to ?? null };
  const proposals = input.proposals.filter((p) => inWindow(p.date, window));
  const summary = {
    ...window,
    proposals: proposals.length,
    undated: input.proposals.filter((p) => !p.date).length,
  };
  const conflicts = input.conflicts ?? noConflicts;
  if (!options.excludeConflicts || conflicts.size === 0)
    return { input: { ...input, proposals }, window: summary };
  const systems = input.systems.map((s) => ({
    ...s,
    lists: new Map(
      [...s.lists].map(([proposal, variants]) => [
        proposal,
        new Map([...variants].map(([v, items]) => [v, withoutConflicted(proposal, items, conflicts)])),
      ]),
    ),
    // Scores stay parallel to the lists: the same positions are dropped.
    ...(s.scores ? { scores: withoutConflictedScores(s.lists, s.scores, conflicts) } : {}),
  }));
  return { input: { ...input, proposals, systems }, window: summary };
}

/** COI@K and leakage of one system's lists (the first variant of each evaluated proposal), slots listed to rank `depth`. */
export function systemIntegrity(
  input: OfflineInput,
  lists: readonly ProposalList[],
  ks: readonly number[],
  depth: number,
): SystemIntegrity {
  const conflicts = input.conflicts ?? noConflicts;
  const proposalDates = new Map(input.proposals.flatMap((p) => (p.date ? [[p.id, p.date] as const] : [])));
  const profileDates = input.profileDates ?? new Map<string, string>();
  return {
    conflicts: conflictsAtK(lists, conflicts, ks),
    conflictedSlots: conflictedSlots(lists, conflicts, depth),
    leakage: leakageAtK(lists, proposalDates, profileDates, ks),
    leakedSlots: leakedSlots(lists, proposalDates, profileDates, depth),
  };
}

/** COI@K over every system's lists together. */
export function overallConflicts(
  perSystem: readonly SystemIntegrity[],
  ks: readonly number[],
): ConflictsAtK[] {
  return ks.map((k, i) => {
    const slots = perSystem.reduce((n, s) => n + s.conflicts[i].slots, 0);
    const conflicted = perSystem.reduce((n, s) => n + s.conflicts[i].conflicted, 0);
    return { k, slots, conflicted, share: slots ? conflicted / slots : null };
  });
}

type Lists = OfflineInput["systems"][number]["lists"];
type Scores = NonNullable<OfflineInput["systems"][number]["scores"]>;

/** A system's scores without those of conflicted candidates, position for position with `withoutConflicted`'s lists. */
function withoutConflictedScores(lists: Lists, scores: Scores, conflicts: ConflictMap): Scores {
  return new Map(
    [...scores].map(([proposal, variants]) => {
      const declared = conflicts.get(proposal);
      if (!declared) return [proposal, variants];
      return [
        proposal,
        new Map(
          [...variants].map(([v, values]) => [
            v,
            values.filter((_, i) => !declared.has(lists.get(proposal)?.get(v)?.[i] ?? "")),
          ]),
        ),
      ];
    }),
  );
}

export type { ConflictedSlot, ConflictsAtK, LeakageAtK, LeakedSlot };
