import type { Rng } from "../lib/random";

/**
 * One bootstrap draw of n indices into a sample, written into `out`.
 *
 * Without strata: n indices drawn uniformly with replacement (the plain bootstrap; it consumes the
 * generator exactly as `rng.int(n)` n times, so plain intervals are unchanged by this helper).
 * With strata (one label per unit, e.g. the proposal's subject): each stratum is resampled within
 * itself with its own size kept (the stratified bootstrap, Davison & Hinkley 1997, §3.7), strata taken
 * in sorted label order so that one seed always gives the same draws.
 */
export function createResampler(
  n: number,
  rng: Rng,
  strata: readonly string[] | null = null,
): (out: Int32Array) => void {
  if (!strata) {
    return (out) => rng.fillInts(out, n, 0, n);
  }
  if (strata.length !== n) throw new Error(`Stratified bootstrap: ${strata.length} labels for ${n} units.`);
  const groups = new Map<string, number[]>();
  strata.forEach((label, i) => {
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label)!.push(i);
  });
  const ordered = [...groups.keys()].sort().map((label) => Int32Array.from(groups.get(label)!));
  return (out) => {
    let at = 0;
    for (const members of ordered) {
      // Indices into the stratum first (the draws of rng.int, in bulk), then the stratum's members.
      rng.fillInts(out, members.length, at, at + members.length);
      for (let j = 0; j < members.length; j++, at++) out[at] = members[out[at]];
    }
  };
}

/** The stratum of a proposal when stratifying by subject: its subject, "(none)" when it has none. */
export const subjectStratum = (subject: string | null) => subject ?? "(none)";
