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

export interface TaskSimulationOptions {
  tasks: number;
  queries: number;
  docsPerQuery?: number;
  maxRank?: number;
  seed?: string;
}

/** A log of fresh random rankings (each query's documents shuffled, the first maxRank shown). */
function shuffledLog(options: TaskSimulationOptions, vocabulary: Vocabulary, capacity: number) {
  const R = options.maxRank ?? 10;
  const D = Math.max(options.docsPerQuery ?? R + 5, R);
  const rng = createRng(options.seed ?? "clicks");
  const first = vocabulary.pairCount;
  for (let q = 0; q < options.queries; q++) {
    const query = vocabulary.query(`q${q}`);
    for (let d = 0; d < D; d++) vocabulary.pair(query, `q${q}d${d}`);
  }
  const attr = Float64Array.from({ length: options.queries * D }, () => 0.05 + 0.75 * rng.next());
  const log = emptyLog(vocabulary, capacity, R);
  const order = Int32Array.from({ length: D }, (_, d) => d);
  /** Appends a session of query q with a random ranking; returns its slot base. */
  const session = (q: number, task: number): number => {
    for (let d = D - 1; d > 0; d--) {
      const k = rng.int(d + 1);
      [order[d], order[k]] = [order[k], order[d]];
    }
    if (log.size === log.query.length) throw new Error("simulation capacity exceeded");
    const s = log.size++;
    log.ids.push(`s${s}`);
    log.query[s] = vocabulary.query(`q${q}`);
    log.length[s] = R;
    log.task[s] = task;
    for (let r = 0; r < R; r++) log.pair[s * R + r] = first + q * D + order[r];
    return s * R;
  };
  return { R, rng, attr, log, session, local: (slot: number) => log.pair[slot] - first };
}

/**
 * A task-structured log drawn from a TCM (CLICK-MODELS.md §8.2 read as a generative story): per task
 * one query; each session matches with probability `match` (else no click, and another session
 * follows), a matched one gets PBM clicks (exam × attr) where a document shown earlier in the task is
 * clickable only with probability `fresh`, and another session follows it with probability `new`.
 */
export function simulateTcmLog(
  options: TaskSimulationOptions & { match: number; next: number; fresh: number; exam: number[] },
  vocabulary = new Vocabulary(),
): { log: ClickLog; attr: Float64Array } {
  const sim = shuffledLog(options, vocabulary, options.tasks * 40);
  const { R, rng, attr, log } = sim;
  for (let t = 0; t < options.tasks; t++) {
    const q = rng.int(options.queries);
    const shown = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const base = sim.session(q, t);
      const matched = rng.next() < options.match;
      for (let r = 0; r < R && matched; r++) {
        const d = sim.local(base + r);
        const f = shown.has(d) ? options.fresh : 1;
        log.click[base + r] = rng.next() < options.exam[r] * attr[d] * f ? 1 : 0;
      }
      for (let r = 0; r < R; r++) shown.add(sim.local(base + r));
      if (matched && rng.next() >= options.next) break;
    }
  }
  for (let t = 0; t < options.tasks; t++) log.taskIndex.set(`t${t}`, t);
  return { log, attr };
}

/**
 * A log drawn from a DCM (Guo et al. 2009): top-down, a click with probability attr, after a click at
 * rank r the user goes on with probability `cont[r]`, after a skip always. Each session its own task.
 */
export function simulateDcmLog(
  options: TaskSimulationOptions & { cont: number[] },
  vocabulary = new Vocabulary(),
): { log: ClickLog; attr: Float64Array } {
  const sim = shuffledLog(options, vocabulary, options.tasks);
  const { R, rng, attr, log } = sim;
  for (let s = 0; s < options.tasks; s++) {
    const base = sim.session(rng.int(options.queries), -1);
    for (let r = 0; r < R; r++) {
      if (rng.next() >= attr[sim.local(base + r)]) continue;
      log.click[base + r] = 1;
      if (rng.next() >= options.cont[r]) break;
    }
  }
  return { log, attr };
}
