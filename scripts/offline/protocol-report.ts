import { variance } from "../stats/quantile";
import {
  foldOf,
  measuredList,
  minimumCommittee,
  parseProtocolValue,
  splitCommittee,
  type ProtocolName,
} from "./protocol";
import type { OfflineInput } from "./report";

type InputSystem = OfflineInput["systems"][number];

/** What a protocol system's report says about the protocol itself, beside the usual figures. */
export interface ProtocolSummary {
  protocol: ProtocolName;
  seed: string;
  /** The folds the system has lists for (the variants `fold-N`). */
  folds: number[];
  /** Proposals the system has lists for whose committee is too small for the protocol. */
  dropped: { proposal: string; members: number }[];
  /** Lists under a variant that names no fold: not measured. */
  unmatchedLists: number;
  /** Lists that contain a given member: those members are removed before measuring, never scored. */
  givenReturned: {
    lists: number;
    slots: number;
    examples: { proposal: string; variant: string; candidates: string[] }[];
  };
  /** Each fold's mean of the key measures over its proposals, and their spread across folds. */
  perFold: { fold: number; proposals: number; measures: Record<string, number | null> }[];
  spread: Record<string, { mean: number | null; sd: number | null; min: number | null; max: number | null }>;
}

/** A system as the report measures it under its protocol: lists without given members, gold per fold. */
export interface ProtocolView {
  system: InputSystem;
  /** The measured members of a proposal's list under a variant (fold); the committee when no protocol. */
  goldFor: (proposal: string, variant: string) => ReadonlySet<string> | undefined;
  summary: Omit<ProtocolSummary, "perFold" | "spread"> | null;
}

const EXAMPLES = 20;

/**
 * The system measured against the measurement sets of its protocol (its `protocol` value names the
 * protocol and seed the inputs were split with; the split is recomputed from the gold, so the gold
 * must be the one the inputs came from). A system without a protocol is returned as it is.
 */
export function protocolView(input: OfflineInput, system: InputSystem): ProtocolView {
  if (!system.protocol) return { system, goldFor: (p) => input.gold.get(p), summary: null };
  const spec = parseProtocolValue(system.protocol);
  const measured = new Map<string, Set<string>>();
  const lists = new Map<string, Map<string, readonly string[]>>();
  const scores = system.scores ? new Map<string, Map<string, readonly (number | null)[]>>() : undefined;
  const dropped: ProtocolSummary["dropped"] = [];
  const folds = new Set<number>();
  let unmatchedLists = 0;
  const givenReturned: ProtocolSummary["givenReturned"] = { lists: 0, slots: 0, examples: [] };
  for (const [proposal, variants] of system.lists) {
    const committee = input.gold.get(proposal);
    if (!committee || committee.size < minimumCommittee(spec.protocol)) {
      if (committee?.size) dropped.push({ proposal, members: committee.size });
      continue;
    }
    for (const [variant, items] of variants) {
      const fold = foldOf(variant);
      if (fold === null) {
        unmatchedLists++;
        continue;
      }
      folds.add(fold);
      const split = splitCommittee(spec, fold, proposal, committee)!;
      const given = new Set(split.given);
      const kept = measuredList(items, given);
      if (kept.givenReturned > 0) {
        givenReturned.lists++;
        givenReturned.slots += kept.givenReturned;
        if (givenReturned.examples.length < EXAMPLES)
          givenReturned.examples.push({ proposal, variant, candidates: items.filter((c) => given.has(c)) });
      }
      if (!lists.has(proposal)) lists.set(proposal, new Map());
      lists.get(proposal)!.set(variant, kept.items);
      measured.set(`${proposal}\u0000${variant}`, new Set(split.measured));
      const s = system.scores?.get(proposal)?.get(variant);
      if (scores && s) {
        if (!scores.has(proposal)) scores.set(proposal, new Map());
        scores.get(proposal)!.set(variant, kept.givenReturned ? s.filter((_, i) => !given.has(items[i])) : s);
      }
    }
  }
  return {
    system: { ...system, lists, ...(scores ? { scores } : {}) },
    goldFor: (p, variant) => measured.get(`${p}\u0000${variant}`),
    summary: {
      protocol: spec.protocol,
      seed: spec.seed,
      folds: [...folds].sort((a, b) => a - b),
      dropped: dropped.sort((a, b) => (a.proposal < b.proposal ? -1 : 1)),
      unmatchedLists,
      givenReturned,
    },
  };
}

/**
 * Each fold's figure (the mean over the proposals it has a list for) and the spread of those figures
 * across folds: repeated random splits, the across-split SD saying how much one split's luck moves it.
 */
export function foldFigures(
  values: { fold: number; measure: string; value: number }[],
  measures: readonly string[],
): Pick<ProtocolSummary, "perFold" | "spread"> {
  const folds = [...new Set(values.map((v) => v.fold))].sort((a, b) => a - b);
  const perFold = folds.map((fold) => {
    const mine = values.filter((v) => v.fold === fold);
    const out: Record<string, number | null> = {};
    for (const name of measures) {
      const xs = mine.filter((v) => v.measure === name && !Number.isNaN(v.value)).map((v) => v.value);
      out[name] = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    }
    const proposals = mine.filter((v) => v.measure === measures[0]).length;
    return { fold, proposals, measures: out };
  });
  const spread: ProtocolSummary["spread"] = {};
  for (const name of measures) {
    const xs = perFold.map((f) => f.measures[name]).filter((v): v is number => v !== null);
    spread[name] = {
      mean: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null,
      sd: xs.length > 1 ? Math.sqrt(variance(xs)) : null,
      min: xs.length ? Math.min(...xs) : null,
      max: xs.length ? Math.max(...xs) : null,
    };
  }
  return { perFold, spread };
}
