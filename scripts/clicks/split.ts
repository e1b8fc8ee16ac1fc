import { createRng } from "../lib/random";
import { subLog, type ClickLog, type RawSession } from "./log";

/**
 * Train/test split by session: each session goes to test with probability `testShare`, drawn from a
 * generator seeded by `seed`, so a seed always gives the same split. File order is kept on both sides.
 */
export function splitSessions(
  sessions: RawSession[],
  testShare: number,
  seed: string,
): { train: RawSession[]; test: RawSession[] } {
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
export function keepKnownQueries(
  train: RawSession[],
  test: RawSession[],
): { kept: RawSession[]; dropped: number } {
  const known = new Set(train.map((s) => s.query));
  const kept = test.filter((s) => known.has(s.query));
  return { kept, dropped: test.length - kept.length };
}

/**
 * `splitSessions` on a log already read (same draws, so the same seed gives the same split); without a
 * seed the last `testShare` of the sessions in file order are test (PyClick's examples/Example.py).
 */
export function splitLog(
  log: ClickLog,
  testShare: number,
  seed?: string,
): { train: ClickLog; test: ClickLog } {
  const train: number[] = [];
  const test: number[] = [];
  if (seed === undefined) {
    const cut = Math.floor((1 - testShare) * log.size);
    for (let s = 0; s < log.size; s++) (s < cut ? train : test).push(s);
  } else {
    const rng = createRng(seed);
    for (let s = 0; s < log.size; s++) (rng.next() < testShare ? test : train).push(s);
  }
  return { train: subLog(log, train), test: subLog(log, test) };
}
