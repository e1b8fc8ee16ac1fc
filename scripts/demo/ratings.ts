import { createRng, normal } from "../lib/random";

/**
 * A pair's latent quality, the same for every expert: higher for committee members and for candidates
 * sharing the proposal's keywords, with a seeded personal part.
 */
export function pairQuality(seed: string, pair: { gold: boolean; overlap: number }, pairKey: string): number {
  const latent = createRng(`${seed}:latent:${pairKey}`);
  return (pair.gold ? 1.6 : 0) + 0.9 * pair.overlap + 0.5 * normal(latent);
}

/** A reading of the latent quality on the 1–4 scale. */
export const gradeOfQuality = (read: number): 1 | 2 | 3 | 4 =>
  read < 0.4 ? 1 : read < 1.2 ? 2 : read < 2.1 ? 3 : 4;

/**
 * Simulated expert grades: each expert reads the pair's latent quality with their own noise and
 * leniency, giving agreement in the range real panels show (ordinal α around 0.6–0.8).
 */
export function simulatedGrade(
  seed: string,
  expert: number,
  pair: { gold: boolean; overlap: number },
  pairKey: string,
): 1 | 2 | 3 | 4 | null {
  const quality = pairQuality(seed, pair, pairKey);
  const rng = createRng(`${seed}:grade:${expert}:${pairKey}`);
  if (rng.next() < 0.03) return null; // can't judge
  const leniency = ((expert % 3) - 1) * 0.2;
  return gradeOfQuality(quality + leniency + 0.45 * normal(rng));
}
