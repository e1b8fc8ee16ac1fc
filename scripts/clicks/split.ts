import { createRng } from "../lib/random";
import type { RawSession } from "./log";

/**
 * Train/test split by session: each session goes to test with probability `testShare`, drawn from a
 * generator seeded by `seed`, so a seed always gives the same split. File order is kept on both sides.
 */
export function splitSessions(sessions: RawSession[], testShare: number, seed: string): { train: RawSession[]; test: RawSession[] } {
  const rng = createRng(seed);
  const train: RawSession[] = [];
  const test: RawSession[] = [];
  for (const s of sessions) (rng.next() < testShare ? test : train).push(s);
  return { train, test };
}

/**
 * Test sessions whose query occurs in training (PyClick's Utils.filter_sessions): a model knows
 * nothing of another query. Returns the kept ones in order and how many were dropped.
 */
export function keepKnownQueries(train: RawSession[], test: RawSession[]): { kept: RawSession[]; dropped: number } {
  const known = new Set(train.map((s) => s.query));
  const kept = test.filter((s) => known.has(s.query));
  return { kept, dropped: test.length - kept.length };
}
