import { createRng } from "../lib/random";
import { emptyLog, type ClickLog, Vocabulary } from "./log";

export interface SimulationOptions {
  sessions: number;
  queries: number;
  /** Candidate documents per query (≥ maxRank): the first maxRank are the usual ranking. */
  docsPerQuery?: number;
  maxRank?: number;
  /** DBN continuation probability. */
  gamma?: number;
  /** Share of sessions whose ranking swaps two neighbours (so a document is seen at two ranks). */
  swapShare?: number;
  seed?: string;
}

/**
 * A click log drawn from a DBN (Chapelle & Zhang 2009) with per-pair attractiveness and satisfaction
 * uniform in [0.02, 0.8] and [0.05, 0.9], written straight into typed arrays (for benchmarks and tests
 * of recovery). Mostly the same ranking per query, as in search logs; the last rank sometimes shows
 * another candidate.
 */
export function simulateDbnLog(
  options: SimulationOptions,
  vocabulary = new Vocabulary(),
): { log: ClickLog; attr: Float64Array; sat: Float64Array } {
  const R = options.maxRank ?? 10;
  const D = Math.max(options.docsPerQuery ?? R + 2, R);
  const gamma = options.gamma ?? 0.9;
  const swapShare = options.swapShare ?? 0.2;
  const rng = createRng(options.seed ?? "clicks");
  const first = vocabulary.pairCount;
  for (let q = 0; q < options.queries; q++) {
    const query = vocabulary.query(`q${q}`);
    for (let d = 0; d < D; d++) vocabulary.pair(query, `q${q}d${d}`);
  }
  const attr = Float64Array.from({ length: options.queries * D }, () => 0.02 + 0.78 * rng.next());
  const sat = Float64Array.from({ length: options.queries * D }, () => 0.05 + 0.85 * rng.next());
  const log = emptyLog(vocabulary, options.sessions, R);
  const order = new Int32Array(R);
  for (let s = 0; s < options.sessions; s++) {
    const q = rng.int(options.queries);
    for (let r = 0; r < R; r++) order[r] = r;
    if (rng.next() < swapShare) {
      const k = rng.int(R - 1);
      [order[k], order[k + 1]] = [order[k + 1], order[k]];
    }
    if (D > R && rng.next() < 0.1) order[R - 1] = R + rng.int(D - R);
    log.ids.push(`s${s}`);
    log.query[s] = vocabulary.query(`q${q}`);
    log.length[s] = R;
    let examined = true;
    for (let r = 0; r < R; r++) {
      const local = q * D + order[r];
      log.pair[s * R + r] = first + local;
      if (!examined) continue;
      const click = rng.next() < attr[local];
      log.click[s * R + r] = click ? 1 : 0;
      if (click && rng.next() < sat[local]) examined = false;
      else if (rng.next() >= gamma) examined = false;
    }
  }
  log.size = options.sessions;
  return { log, attr, sat };
}
