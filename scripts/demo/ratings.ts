import { createRng, normal } from "../lib/random";

/**
 * Simulated expert grades: each pair has a latent quality (higher for committee members and for
 * candidates sharing the proposal's keywords); each expert reads it with their own noise and
 * leniency, giving agreement in the range real panels show (ordinal α around 0.6–0.8).
 */
export function simulatedGrade(seed: string, expert: number, pair: { gold: boolean; overlap: number }, pairKey: string): 1 | 2 | 3 | 4 | null {
  const latent = createRng(`${seed}:latent:${pairKey}`);
  const quality = (pair.gold ? 1.6 : 0) + 0.9 * pair.overlap + 0.5 * normal(latent);
  const rng = createRng(`${seed}:grade:${expert}:${pairKey}`);
  if (rng.next() < 0.03) return null; // can't judge
  const leniency = ((expert % 3) - 1) * 0.2;
  const read = quality + leniency + 0.45 * normal(rng);
  return read < 0.4 ? 1 : read < 1.2 ? 2 : read < 2.1 ? 3 : 4;
}
