import { createRng } from "../lib/random";
import type { InterleavedList } from "./team-draft";

export interface MultileaveOptions {
  /** How many positions are shown at most. */
  depth: number;
  /** The experiment's seed. */
  seed: string | number;
  /** The session the list is for: with the seed, it fixes every draw, so a session always sees one list. */
  sessionId: string;
}

/** One system's ranking, under the key written into `teams`. */
export interface SystemList {
  system: string;
  list: readonly string[];
}

/**
 * Team-draft multileaving (Schuth, Sietsma, Whiteson, Lefortier, de Rijke, CIKM 2014): the team
 * draft of two lists generalised to any number. The teams with the fewest picks so far draft next, one
 * of them drawn uniformly by the PRNG seeded with (experiment seed, session id), so each round is a
 * random order of the teams; the drafting team appends its highest-ranked candidate not already in the
 * merged list. A team whose list is exhausted passes. Rounds go on until the depth is reached or every
 * list is exhausted.
 */
export function teamDraftMultileave(
  lists: readonly SystemList[],
  options: MultileaveOptions,
): InterleavedList {
  const { depth, seed, sessionId } = options;
  if (!Number.isInteger(depth) || depth < 1)
    throw new Error(`the display depth must be a whole number of at least 1, not ${depth}`);
  if (lists.length < 2) throw new Error(`multileaving needs at least two systems, not ${lists.length}`);
  const keys = lists.map((l) => l.system);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup !== undefined) throw new Error(`the systems need different keys, not ${dup} twice`);
  // The same seed string as teamDraft's, so one experiment's sessions draw from one family of streams.
  const rng = createRng(`${String(seed).length}:${seed}:${sessionId}`);
  const shown = new Set<string>();
  const items: string[] = [];
  const teams: string[] = [];
  const next = lists.map(() => 0);
  const picks = lists.map(() => 0);
  while (items.length < depth) {
    const open: number[] = [];
    for (let t = 0; t < lists.length; t++) {
      const list = lists[t].list;
      while (next[t] < list.length && shown.has(list[next[t]])) next[t]++;
      if (next[t] < list.length) open.push(t);
    }
    if (open.length === 0) break;
    const fewest = Math.min(...open.map((t) => picks[t]));
    const tied = open.filter((t) => picks[t] === fewest);
    const t = tied.length === 1 ? tied[0] : tied[rng.int(tied.length)];
    const candidate = lists[t].list[next[t]];
    shown.add(candidate);
    items.push(candidate);
    teams.push(lists[t].system);
    picks[t]++;
  }
  return { items, teams };
}
