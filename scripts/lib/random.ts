/**
 * Seeded pseudo-random numbers, so one seed and one data set always give the same result.
 *
 * Generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state, from
 * PractRand), seeded from a string or number through cyrb128. It passes PractRand and BigCrush and
 * runs on 32-bit integer operations, which JavaScript engines compile to a few instructions: the
 * bootstrap draws 10^8 indices and a library generator behind a method call would dominate its time.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** The raw 32-bit unsigned output, for hot loops. */
  nextUint32(): number;
  /**
   * `out[from..to)` filled with integers in [0, n): the same numbers, in the same order, as that many
   * calls of `int(n)`, several times faster (the state stays in locals instead of the closure's
   * variables, which every call reads and writes back: 10^8 bootstrap draws spent most of their time there).
   */
  fillInts(out: Int32Array, n: number, from?: number, to?: number): void;
  /**
   * `out[from..to)` filled with raw outputs, as that many calls of nextUint32: a caller whose bounds
   * change from call to call gets int(n) as Math.floor((u / 2^32) * n), and skips draws it does not need.
   */
  fillUint32(out: Uint32Array, from?: number, to?: number): void;
}

export function createRng(seed: string | number): Rng {
  let [a, b, c, d] = cyrb128(String(seed));
  const nextUint32 = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: sfc32 mixes its seed in over the first few rounds.
  for (let i = 0; i < 15; i++) nextUint32();
  const fillInts = (out: Int32Array, n: number, from = 0, to = out.length) => {
    let A = a | 0,
      B = b | 0,
      C = c | 0,
      D = d | 0;
    for (let i = from; i < to; i++) {
      // The sfc32 step of nextUint32.
      let t = (A + B) | 0;
      A = B ^ (B >>> 9);
      B = (C + (C << 3)) | 0;
      C = (C << 21) | (C >>> 11);
      D = (D + 1) | 0;
      t = (t + D) | 0;
      C = (C + t) | 0;
      out[i] = Math.floor(((t >>> 0) / 4294967296) * n);
    }
    a = A >>> 0;
    b = B >>> 0;
    c = C >>> 0;
    d = D >>> 0;
  };
  // The same sfc32 step as fillInts, written out rather than shared: a shared step would have to hand
  // back four state words per output (an object or the closure's variables, the very cost these loops
  // avoid by keeping the state in locals). Merging them waits for the agreement and fairness benches to
  // show it costs nothing (alternating runs), which this machine's load has not allowed yet.
  const fillUint32 = (out: Uint32Array, from = 0, to = out.length) => {
    let A = a | 0,
      B = b | 0,
      C = c | 0,
      D = d | 0;
    for (let i = from; i < to; i++) {
      let t = (A + B) | 0;
      A = B ^ (B >>> 9);
      B = (C + (C << 3)) | 0;
      C = (C << 21) | (C >>> 11);
      D = (D + 1) | 0;
      t = (t + D) | 0;
      C = (C + t) | 0;
      out[i] = t >>> 0;
    }
    a = A >>> 0;
    b = B >>> 0;
    c = C >>> 0;
    d = D >>> 0;
  };
  return {
    nextUint32,
    fillUint32,
    next: () => nextUint32() / 4294967296,
    int: (n: number) => Math.floor((nextUint32() / 4294967296) * n),
    fillInts,
  };
}

/** cyrb128: a 128-bit string hash by bryc, used only to spread a seed over sfc32's state. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A standard normal deviate (Box–Muller). */
export function normal(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
