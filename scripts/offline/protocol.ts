import { createRng, shuffled } from "../lib/random";
import { PROTOCOLS, type ProtocolName } from "../inputs/protocol";

export { PROTOCOLS, type ProtocolName };

/**
 * The evaluation protocols of Breese, Heckerman and Kadie (1998), applied to committees: *given m*
 * (m = 2, 5, 10 members are given to the system as input, the rest are measured) and *all-but-1* (all
 * members but one are given, the held-out one is measured). For Assay this is the convener who has
 * already picked m members: how well does the system find the rest? A committee with fewer than m + 1
 * members (all-but-1: fewer than 2) leaves nothing to measure and is dropped, counted and listed.
 */

/** A protocol run: the protocol, the seed of its splits and how many splits (folds). */
export interface ProtocolSpec {
  protocol: ProtocolName;
  seed: string;
}

export class ProtocolError extends Error {}

/** How many members a protocol gives for a committee of `size`. */
export function givenCount(protocol: ProtocolName, size: number): number {
  return protocol === "all-but-1" ? size - 1 : Number(protocol.slice("given-".length));
}

/** The smallest committee a protocol can measure: m + 1 (all-but-1: 2). */
export function minimumCommittee(protocol: ProtocolName): number {
  return protocol === "all-but-1" ? 2 : givenCount(protocol, 0) + 1;
}

export function isProtocolName(value: string): value is ProtocolName {
  return (PROTOCOLS as readonly string[]).includes(value);
}

/**
 * A lists import's `protocol` value: `given-2:SEED` (the protocol, a colon, the seed the inputs were
 * split with), as `assay protocol split` writes it into each input line. Throws a sentence naming
 * what is wrong.
 */
export function parseProtocolValue(value: string): ProtocolSpec {
  const colon = value.indexOf(":");
  const protocol = (colon < 0 ? value : value.slice(0, colon)).trim();
  const seed = colon < 0 ? "" : value.slice(colon + 1).trim();
  if (!isProtocolName(protocol))
    throw new ProtocolError(
      `protocol "${value}" is not one of ${PROTOCOLS.join(", ")} followed by :SEED (as given-2:7)`,
    );
  if (!seed)
    throw new ProtocolError(`protocol "${value}" names no seed: write ${protocol}:SEED (as ${protocol}:7)`);
  return { protocol, seed };
}

export const formatProtocolValue = (spec: ProtocolSpec) => `${spec.protocol}:${spec.seed}`;

/** The variant a fold's lists are imported under: `fold-1`, `fold-2`, … */
export const foldVariant = (fold: number) => `fold-${fold}`;

/** The fold of a variant name, or null when it names none. */
export function foldOf(variant: string): number | null {
  const match = /^fold-(\d+)$/.exec(variant);
  return match ? Number(match[1]) : null;
}

/** One proposal's split in one fold: the members given to the system and those measured. */
export interface ProtocolCase {
  proposal: string;
  fold: number;
  given: string[];
  measured: string[];
}

export interface ProtocolSplit {
  spec: ProtocolSpec;
  folds: number;
  cases: ProtocolCase[];
  /** Proposals whose committee is too small for the protocol, with its size. */
  dropped: { proposal: string; members: number }[];
}

/**
 * One proposal's members given and measured in one fold. Each (seed, fold, proposal) has a generator
 * of its own, so a proposal's split does not depend on which other proposals are split with it (a
 * committee added later changes no earlier split), and the report can recompute it from the gold.
 */
export function splitCommittee(
  spec: ProtocolSpec,
  fold: number,
  proposal: string,
  committee: Iterable<string>,
): { given: string[]; measured: string[] } | null {
  const members = [...committee].sort();
  if (members.length < minimumCommittee(spec.protocol)) return null;
  const order = shuffled(members, createRng(`${spec.seed}:${fold}:${proposal}`));
  const m = givenCount(spec.protocol, members.length);
  return { given: order.slice(0, m).sort(), measured: order.slice(m).sort() };
}

/**
 * Every proposal's split in each of `folds` folds (numbered from 1). Refuses a protocol that no
 * committee is large enough for, with the largest committee's size.
 */
export function splitCommittees(
  gold: ReadonlyMap<string, ReadonlySet<string>>,
  spec: ProtocolSpec,
  folds = 1,
): ProtocolSplit {
  if (!Number.isInteger(folds) || folds < 1)
    throw new ProtocolError("folds must be a whole number of at least 1");
  const proposals = [...gold.keys()].filter((p) => (gold.get(p)?.size ?? 0) > 0).sort();
  if (proposals.length === 0)
    throw new ProtocolError("there are no gold committees to split: import gold first");
  const largest = Math.max(...proposals.map((p) => gold.get(p)!.size));
  const needed = minimumCommittee(spec.protocol);
  if (largest < needed)
    throw new ProtocolError(
      `${spec.protocol} needs committees of at least ${needed} members; the largest has ${largest}`,
    );
  const cases: ProtocolCase[] = [];
  const dropped: ProtocolSplit["dropped"] = [];
  for (const proposal of proposals) {
    const committee = gold.get(proposal)!;
    if (committee.size < needed) {
      dropped.push({ proposal, members: committee.size });
      continue;
    }
    for (let fold = 1; fold <= folds; fold++)
      cases.push({ proposal, fold, ...splitCommittee(spec, fold, proposal, committee)! });
  }
  return { spec, folds, cases, dropped };
}

/** The two files a split writes, a JSON line per proposal and fold: what the system gets, and what is measured. */
export function splitLines(split: ProtocolSplit): { inputs: string[]; measurement: string[] } {
  const protocol = formatProtocolValue(split.spec);
  return {
    inputs: split.cases.map((c) =>
      JSON.stringify({ proposal: c.proposal, variant: foldVariant(c.fold), protocol, given: c.given }),
    ),
    measurement: split.cases.map((c) =>
      JSON.stringify({ proposal: c.proposal, variant: foldVariant(c.fold), protocol, measured: c.measured }),
    ),
  };
}

/**
 * A protocol list as the report measures it: the given members removed (ranks closed up) and counted,
 * so a system that returns what it was given is never credited for it.
 */
export function measuredList(
  items: readonly string[],
  given: ReadonlySet<string>,
): { items: readonly string[]; givenReturned: number } {
  let givenReturned = 0;
  for (const c of items) if (given.has(c)) givenReturned++;
  return givenReturned === 0
    ? { items, givenReturned }
    : { items: items.filter((c) => !given.has(c)), givenReturned };
}
