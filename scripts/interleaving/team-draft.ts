import { createRng } from "../lib/random";

export interface TeamDraftOptions {
  /** How many positions are shown at most. */
  depth: number;
  /** The experiment's seed. */
  seed: string | number;
  /** The session the list is for: with the seed, it fixes every coin, so a session always sees one list. */
  sessionId: string;
  /** The system keys of list A and list B, written into `teams` (default "A" and "B"). */
  systems?: readonly [string, string];
}

export interface InterleavedList {
  /** Candidate ids in displayed order. */
  items: string[];
  /** The system that placed each item, one per item. */
  teams: string[];
}

/**
 * Team-draft interleaving (Radlinski, Kurup and Joachims 2008; DESIGN.md "Interleaving"): the team
 * with fewer picks so far drafts next, equal counts broken by a coin from the project's PRNG seeded
 * with (experiment seed, session id); the drafting team appends its highest-ranked candidate not
 * already in the merged list. Rounds go on until the depth is reached or both lists are exhausted; a
 * team whose list is exhausted passes and the other drafts (so balance within one pick holds while
 * both still have candidates).
 */
export function teamDraft(
  listA: readonly string[],
  listB: readonly string[],
  options: TeamDraftOptions,
): InterleavedList {
  const { depth, seed, sessionId } = options;
  if (!Number.isInteger(depth) || depth < 1)
    throw new Error(`the display depth must be a whole number of at least 1, not ${depth}`);
  const [systemA, systemB] = options.systems ?? ["A", "B"];
  if (systemA === systemB) throw new Error(`the two systems need different keys, not ${systemA} twice`);
  // The seed and the session id joined by a character neither is likely to hold alone ("1" + "2:3" vs "1:2" + "3").
  const rng = createRng(`${String(seed).length}:${seed}:${sessionId}`);
  const shown = new Set<string>();
  const items: string[] = [];
  const teams: string[] = [];
  // Each team's next position to look at: a candidate before it is already shown.
  let nextA = 0;
  let nextB = 0;
  let picksA = 0;
  let picksB = 0;
  const advance = (list: readonly string[], from: number) => {
    while (from < list.length && shown.has(list[from])) from++;
    return from;
  };
  while (items.length < depth) {
    nextA = advance(listA, nextA);
    nextB = advance(listB, nextB);
    const aHas = nextA < listA.length;
    const bHas = nextB < listB.length;
    if (!aHas && !bHas) break;
    // The coin is drawn on every tie, whether or not a team has to pass, so the sequence of coins
    // depends only on the session and the pick counts.
    const aTurn = picksA < picksB || (picksA === picksB && rng.next() < 0.5);
    const a = aHas && (aTurn || !bHas);
    const candidate = a ? listA[nextA] : listB[nextB];
    shown.add(candidate);
    items.push(candidate);
    teams.push(a ? systemA : systemB);
    if (a) picksA++;
    else picksB++;
  }
  return { items, teams };
}
