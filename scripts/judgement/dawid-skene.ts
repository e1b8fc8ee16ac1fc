/**
 * Dawid–Skene (Dawid and Skene 1979, "Maximum likelihood estimation of observer error-rates using the
 * EM algorithm", Applied Statistics 28(1):20–28): each item has an unknown true class k with prior
 * p_k; rater j gives class l to an item of class k with probability π^j_kl (one confusion matrix per
 * rater). EM over the posteriors T_ik of each item's class:
 * - start: T from the majority vote, a tie split evenly between the tied classes;
 * - M-step: p_k = Σ_i T_ik / I, π^j_kl = Σ_i T_ik n^j_il / Σ_l' Σ_i T_ik n^j_il' (n^j_il = how often
 *   j gave l to i; a rater may grade an item more than once, as in the paper's data);
 * - E-step: T_ik ∝ p_k Π_j Π_l (π^j_kl)^n^j_il, and the log-likelihood Σ_i log Σ_k p_k Π … ;
 * until the log-likelihood gains less than 1e-6 or after 100 iterations. An item's label is its most
 * probable class (the lower grade on an exact tie). No smoothing, as in the paper: a rater who never
 * met a class gets a uniform row for it (it has no weight in any posterior).
 */
export interface DawidSkeneResult {
  /** Most probable grade per item. */
  labels: Map<string, number>;
  /** Posterior class probabilities per item (index 0 = grade 1). */
  posteriors: Map<string, number[]>;
  /** Class priors p_k. */
  priors: number[];
  /** Per rater, π[k][l] = P(rater gives grade l + 1 | true grade k + 1). */
  confusion: Map<string, number[][]>;
  logLikelihood: number;
  iterations: number;
}

export const DS_TOLERANCE = 1e-6;

/**
 * Where EM starts: "majority" (DESIGN.md: the majority vote, ties split evenly) or "votes" (each
 * item's shares of the votes, the start of Dawid and Skene's own worked example). EM finds a local
 * maximum, so the two can end apart: on the paper's Table 1 the majority start ends with class 4's
 * prior at 0.02 instead of the paper's 0.07 (patients 2 and 36, split 3/4, go to class 3).
 */
export type DsStart = "majority" | "votes";
export const DS_MAX_ITERATIONS = 100;

/** Observations as parallel typed arrays: the form the EM loop and the learning curves use. */
export interface Observations {
  item: Int32Array;
  rater: Int32Array;
  /** Class index 0..K−1. */
  cls: Int32Array;
  items: number;
  raters: number;
  classes: number;
  /** When the observations come item by item: where item i's start (I + 1 entries). */
  itemStart?: Int32Array;
}

export interface EmState {
  posteriors: Float64Array;
  priors: Float64Array;
  confusion: Float64Array;
  logLikelihood: number;
  iterations: number;
}

/** Dawid–Skene over named ratings with grades 1..classes. */
export function dawidSkene(
  ratings: readonly { item: string; rater: string; grade: number }[],
  options: { classes: number; start?: DsStart },
): DawidSkeneResult {
  const K = options.classes;
  const itemIds = new Map<string, number>();
  const raterIds = new Map<string, number>();
  const n = ratings.length;
  const obs: Observations = {
    item: new Int32Array(n),
    rater: new Int32Array(n),
    cls: new Int32Array(n),
    items: 0,
    raters: 0,
    classes: K,
  };
  ratings.forEach((r, o) => {
    if (!Number.isInteger(r.grade) || r.grade < 1 || r.grade > K)
      throw new Error(
        `the grade ${r.grade} of ${r.rater} for ${r.item} is not a whole number from 1 to ${K}`,
      );
    if (!itemIds.has(r.item)) itemIds.set(r.item, itemIds.size);
    if (!raterIds.has(r.rater)) raterIds.set(r.rater, raterIds.size);
    obs.item[o] = itemIds.get(r.item)!;
    obs.rater[o] = raterIds.get(r.rater)!;
    obs.cls[o] = r.grade - 1;
  });
  obs.items = itemIds.size;
  obs.raters = raterIds.size;
  const em = dawidSkeneEm(obs, options.start);
  const labels = dawidSkeneLabels(em.posteriors, K);
  const items = [...itemIds.keys()];
  return {
    labels: new Map(items.map((item, i) => [item, labels[i] + 1])),
    posteriors: new Map(
      items.map((item, i) => [item, Array.from(em.posteriors.subarray(i * K, (i + 1) * K))]),
    ),
    priors: Array.from(em.priors),
    confusion: new Map(
      [...raterIds].map(([rater, j]) => [
        rater,
        Array.from({ length: K }, (_, k) =>
          Array.from(em.confusion.subarray((j * K + k) * K, (j * K + k + 1) * K)),
        ),
      ]),
    ),
    logLikelihood: em.logLikelihood,
    iterations: em.iterations,
  };
}

/** Most probable class index per item, the lower one on an exact tie. */
export function dawidSkeneLabels(posteriors: Float64Array, K: number): Int32Array {
  const I = posteriors.length / K;
  const out = new Int32Array(I);
  for (let i = 0; i < I; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (posteriors[i * K + k] > posteriors[i * K + best]) best = k;
    out[i] = best;
  }
  return out;
}

/** Where a warm-started EM starts: class priors and confusion matrices (J × K × K), e.g. a previous fit's. */
export interface DsParameters {
  priors: Float64Array;
  confusion: Float64Array;
}

/**
 * The EM loop itself (see the file's comment). With `warm`, the first E-step reads those parameters
 * instead of starting from the votes: rater-level values only (no item's posterior), so a learning
 * curve's draws can start from the previous draw's fit without passing on what any item received.
 */
export function dawidSkeneEm(
  obs: Observations,
  start: DsStart = "majority",
  maxIterations = DS_MAX_ITERATIONS,
  tolerance = DS_TOLERANCE,
  warm?: DsParameters,
): EmState {
  const { items: I, classes: K } = obs;
  const T = new Float64Array(I * K);
  if (K === 4 && obs.itemStart) {
    // Warm parameters give the first E-step inside emLoop4's own pass over the items.
    if (!warm) votesStart(obs, start, T);
    return emLoop4(obs, obs.itemStart, T, maxIterations, tolerance, warm && { params: warm, start });
  }
  if (warm) {
    posteriorsFrom(obs, warm, T, new Float64Array(I * K));
    // A grade the warm parameters give probability 0 in every class leaves no posterior: start cold.
    let defined = true;
    for (let x = 0; x < T.length && defined; x++) defined = !Number.isNaN(T[x]);
    if (defined) return emLoop(obs, T, maxIterations, tolerance);
  }
  votesStart(obs, start, T);
  return emLoop(obs, T, maxIterations, tolerance);
}

/** The posteriors EM starts from without warm parameters: the majority vote, ties split evenly, or the votes' shares. */
function votesStart(obs: Observations, start: DsStart, T: Float64Array) {
  const { items: I, classes: K } = obs;
  const votes = new Float64Array(I * K);
  for (let o = 0; o < obs.item.length; o++) votes[obs.item[o] * K + obs.cls[o]]++;
  for (let i = 0; i < I; i++) {
    let best = 0;
    let total = 0;
    for (let k = 0; k < K; k++) best = Math.max(best, votes[i * K + k]);
    for (let k = 0; k < K; k++) total += votes[i * K + k];
    if (start === "votes") {
      for (let k = 0; k < K; k++) T[i * K + k] = votes[i * K + k] / total;
      continue;
    }
    let tied = 0;
    for (let k = 0; k < K; k++) if (votes[i * K + k] === best) tied++;
    for (let k = 0; k < K; k++) T[i * K + k] = votes[i * K + k] === best ? 1 / tied : 0;
  }
}

/** E-step from given parameters: T_ik ∝ p_k Π π^j_k,cls; returns the log-likelihood. */
function posteriorsFrom(obs: Observations, params: DsParameters, T: Float64Array, logItem: Float64Array) {
  const { items: I, classes: K } = obs;
  const logPi = new Float64Array(params.confusion.length);
  for (let c = 0; c < logPi.length; c++) logPi[c] = Math.log(params.confusion[c]);
  for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) logItem[i * K + k] = Math.log(params.priors[k]);
  for (let o = 0; o < obs.item.length; o++) {
    const base = obs.rater[o] * K * K + obs.cls[o];
    const ti = obs.item[o] * K;
    for (let k = 0; k < K; k++) logItem[ti + k] += logPi[base + k * K];
  }
  return normalise(logItem, T, I, K);
}

function emLoop(obs: Observations, T: Float64Array, maxIterations: number, tolerance: number): EmState {
  const { items: I, raters: J, classes: K } = obs;
  const itemStart = K === 4 ? (obs.itemStart ?? startsIfSorted(obs.item, I)) : null;
  if (itemStart) return emLoop4(obs, itemStart, T, maxIterations, tolerance);
  const N = obs.item.length;
  const priors = new Float64Array(K);
  const confusion = new Float64Array(J * K * K);
  const logPi = new Float64Array(J * K * K);
  const logItem = new Float64Array(I * K);
  // Where each observation reads and adds, worked out once: a learning curve runs this loop a
  // million times over the same observations' hundred iterations.
  const base = new Int32Array(N);
  const ti = new Int32Array(N);
  for (let o = 0; o < N; o++) {
    base[o] = obs.rater[o] * K * K + obs.cls[o];
    ti[o] = obs.item[o] * K;
  }
  let logLikelihood = -Infinity;
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    mStep(T, I, K, base, ti, priors, confusion, logPi);
    // E-step, in logs: products of many small probabilities underflow.
    for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) logItem[i * K + k] = Math.log(priors[k]);
    if (K === 4) addLogPi4(logItem, logPi, base, ti);
    else
      for (let o = 0; o < N; o++) {
        const b = base[o],
          t = ti[o];
        for (let k = 0; k < K; k++) logItem[t + k] += logPi[b + k * K];
      }
    const ll = normalise(logItem, T, I, K);
    const gain = ll - logLikelihood;
    logLikelihood = ll;
    if (gain < tolerance) break;
  }
  return { posteriors: T, priors, confusion, logLikelihood, iterations };
}

/** M-step: priors and confusion matrices (and their logs) from the posteriors T. */
function mStep(
  T: Float64Array,
  I: number,
  K: number,
  base: Int32Array,
  ti: Int32Array,
  priors: Float64Array,
  confusion: Float64Array,
  logPi: Float64Array,
) {
  priors.fill(0);
  for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) priors[k] += T[i * K + k];
  for (let k = 0; k < K; k++) priors[k] /= I;
  confusion.fill(0);
  if (K === 4) countConfusion4(confusion, T, base, ti);
  else
    for (let o = 0; o < base.length; o++) {
      const b = base[o],
        t = ti[o];
      for (let k = 0; k < K; k++) confusion[b + k * K] += T[t + k];
    }
  for (let jk = 0; jk < confusion.length / K; jk++) {
    let row = 0;
    for (let l = 0; l < K; l++) row += confusion[jk * K + l];
    for (let l = 0; l < K; l++) {
      confusion[jk * K + l] = row > 0 ? confusion[jk * K + l] / row : 1 / K;
      logPi[jk * K + l] = Math.log(confusion[jk * K + l]);
    }
  }
}

/** Posteriors T from the log joint of each item and class; returns the log-likelihood. */
function normalise(logItem: Float64Array, T: Float64Array, I: number, K: number) {
  let ll = 0;
  for (let i = 0; i < I; i++) {
    let max = -Infinity;
    for (let k = 0; k < K; k++) max = Math.max(max, logItem[i * K + k]);
    let sum = 0;
    for (let k = 0; k < K; k++) sum += T[i * K + k] = Math.exp(logItem[i * K + k] - max);
    for (let k = 0; k < K; k++) T[i * K + k] /= sum;
    ll += max + Math.log(sum);
  }
  return ll;
}

// The two loops over every observation, written out for Assay's four grades: the same additions in
// the same order as the general loops, about twice as fast (no inner loop, no K to read).

function addLogPi4(logItem: Float64Array, logPi: Float64Array, base: Int32Array, ti: Int32Array) {
  for (let o = 0; o < base.length; o++) {
    const b = base[o],
      t = ti[o];
    logItem[t] += logPi[b];
    logItem[t + 1] += logPi[b + 4];
    logItem[t + 2] += logPi[b + 8];
    logItem[t + 3] += logPi[b + 12];
  }
}

function countConfusion4(confusion: Float64Array, T: Float64Array, base: Int32Array, ti: Int32Array) {
  for (let o = 0; o < base.length; o++) {
    const b = base[o],
      t = ti[o];
    confusion[b] += T[t];
    confusion[b + 4] += T[t + 1];
    confusion[b + 8] += T[t + 2];
    confusion[b + 12] += T[t + 3];
  }
}

/**
 * Where each item's observations start, if they come item by item (0, 0, 1, 1, 1, 2, …), as a learning
 * curve's draws do; null otherwise.
 */
function startsIfSorted(item: Int32Array, I: number): Int32Array | null {
  const start = new Int32Array(I + 1);
  for (let o = 0; o < item.length; o++) {
    if (o > 0 && item[o] < item[o - 1]) return null;
    start[item[o] + 1]++;
  }
  for (let i = 0; i < I; i++) start[i + 1] += start[i];
  return start;
}

/**
 * emLoop for four grades and observations that come item by item. Every sum adds the same numbers in
 * the same order as emLoop's separate passes (an item's observations from its log prior; the priors
 * item by item; each confusion cell observation by observation), so the fit is bit for bit the same,
 * several times as fast: the learning curves run it a few hundred thousand times. Per iteration:
 * - the E-step once per group of items with the same observations (groupsOf);
 * - the log-likelihood and the priors' sums in one pass over the items;
 * - each confusion cell's sums over that cell's observations, in locals (cellLists): the additions
 *   of a pass observation by observation into the cells, in their order, without its scattered writes.
 */
function emLoop4(
  obs: Observations,
  itemStart: Int32Array,
  T: Float64Array,
  maxIterations: number,
  tolerance: number,
  warm?: { params: DsParameters; start: DsStart },
): EmState {
  const { items: I, raters: J } = obs;
  const N = obs.item.length;
  const priors = new Float64Array(4);
  const confusion = new Float64Array(J * 16);
  const logPi = new Float64Array(J * 16);
  // The next M-step's sums: of the posteriors per class, and per confusion cell.
  const sums = new Float64Array(4);
  const counts = new Float64Array(J * 16);
  const base = new Int32Array(N);
  for (let o = 0; o < N; o++) base[o] = obs.rater[o] * 16 + obs.cls[o];
  const groups = groupsOf(itemStart, base, J * 16, T);
  const cells = cellLists(itemStart, base, J, groups.at);
  if (!warm || !warmStart4(I, itemStart, base, warm.params, groups, cells, sums, counts, logPi)) {
    // Without warm parameters (T holds the start), or when they leave an item without a posterior.
    if (warm) votesStart(obs, warm.start, T);
    sums.fill(0);
    for (let i = 0; i < I; i++) addPosterior4(T, i, itemStart, base, sums, counts);
  }
  let logLikelihood = -Infinity;
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    mStep4(I, sums, counts, priors, confusion, logPi);
    ePass4(I, itemStart, base, priors, logPi, groups, sums);
    sumCells(cells, groups.posteriors, counts);
    const stop = iterations > 1 && converged(groups, I, tolerance);
    [groups.previous, groups.terms] = [groups.terms, groups.previous];
    [groups.previousEstimate, groups.previousBound] = [groups.estimate, groups.bound];
    if (stop) break;
  }
  const { at, posteriors } = groups;
  if (iterations > 0) {
    logLikelihood = exactLogLikelihood(groups, groups.previous, I);
    if (posteriors !== T)
      for (let i = 0; i < I; i++) for (let k = 0; k < 4; k++) T[i * 4 + k] = posteriors[at[i] + k];
  }
  return { posteriors: T, priors, confusion, logLikelihood, iterations };
}

/**
 * The first E-step from warm parameters, with the sums for the first M-step (as emLoop would make them
 * from the posteriors it gives); false when a grade the parameters give probability 0 in every class
 * leaves an item without a posterior (then EM starts cold).
 */
function warmStart4(
  I: number,
  itemStart: Int32Array,
  base: Int32Array,
  params: DsParameters,
  groups: Groups,
  cells: CellLists,
  sums: Float64Array,
  counts: Float64Array,
  logPi: Float64Array,
): boolean {
  for (let c = 0; c < logPi.length; c++) logPi[c] = Math.log(params.confusion[c]);
  ePass4(I, itemStart, base, params.priors, logPi, groups, sums);
  const { posteriors } = groups;
  for (let x = 0; x < groups.first.length * 4; x++) if (Number.isNaN(posteriors[x])) return false;
  sumCells(cells, posteriors, counts);
  return true;
}

/** M-step from the sums of the posteriors: priors, confusion matrices and their logs. */
function mStep4(
  I: number,
  sums: Float64Array,
  counts: Float64Array,
  priors: Float64Array,
  confusion: Float64Array,
  logPi: Float64Array,
) {
  for (let k = 0; k < 4; k++) priors[k] = sums[k] / I;
  for (let r = 0; r < counts.length; r += 4) {
    const row = counts[r] + counts[r + 1] + counts[r + 2] + counts[r + 3];
    for (let l = 0; l < 4; l++) {
      confusion[r + l] = row > 0 ? counts[r + l] / row : 1 / 4;
      logPi[r + l] = Math.log(confusion[r + l]);
    }
  }
}

/** Adds item i's posteriors to the M-step's sums (per class, and per confusion cell of each grade it got). */
function addPosterior4(
  T: Float64Array,
  i: number,
  itemStart: Int32Array,
  base: Int32Array,
  sums: Float64Array,
  counts: Float64Array,
) {
  const t0 = T[i * 4],
    t1 = T[i * 4 + 1],
    t2 = T[i * 4 + 2],
    t3 = T[i * 4 + 3];
  sums[0] += t0;
  sums[1] += t1;
  sums[2] += t2;
  sums[3] += t3;
  for (let o = itemStart[i]; o < itemStart[i + 1]; o++) {
    const b = base[o];
    counts[b] += t0;
    counts[b + 4] += t1;
    counts[b + 8] += t2;
    counts[b + 12] += t3;
  }
}

/**
 * One E-step: each group's posteriors, with the largest of its log joints and the sum of their exps
 * (Groups.terms), then, item by item, the next M-step's sums per class (into `sums`) and an estimate of
 * the log-likelihood with its error bound (Groups.estimate, Groups.bound; see converged).
 */
function ePass4(
  I: number,
  itemStart: Int32Array,
  base: Int32Array,
  priors: Float64Array,
  logPi: Float64Array,
  groups: Groups,
  sums: Float64Array,
) {
  const { at, first, posteriors, terms } = groups;
  const lp = groups.logPriors;
  for (let k = 0; k < 4; k++) lp[k] = Math.log(priors[k]);
  for (let g = 0; g < first.length; g++) {
    const i = first[g];
    posterior4(itemStart[i], itemStart[i + 1], base, logPi, lp, posteriors, g * 4, terms, g * 2);
  }
  // The estimate: Σ max + Σ log(sum), the logs taken of products of 256 sums (each in [1, 4], so a
  // product stays below 2^512): a log per 256 items instead of one per group.
  let maxes = 0,
    size = 0,
    logs = 0,
    product = 1,
    s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  for (let i = 0; i < I; i++) {
    const q = at[i],
      t = q >> 1;
    const max = terms[t];
    maxes += max;
    size += Math.abs(max);
    product *= terms[t + 1];
    if ((i & 255) === 255) {
      logs += Math.log(product);
      product = 1;
    }
    s0 += posteriors[q];
    s1 += posteriors[q + 1];
    s2 += posteriors[q + 2];
    s3 += posteriors[q + 3];
  }
  sums[0] = s0;
  sums[1] = s1;
  sums[2] = s2;
  sums[3] = s3;
  groups.estimate = maxes + (logs + Math.log(product));
  groups.bound = estimateBound(I, size);
}

/**
 * A bound on |estimate − log-likelihood| (the log-likelihood as emLoop sums it: item by item, each
 * term max + log(sum)), both being within 4·γ_I·M + I·2.2e-16 + (I/256 + 1)·1e-13 of the real sum
 * (Higham's bound on recursive summation, γ_I = I·u/(1 − I·u), u = 2^−53, M = Σ |max| + I·ln 4 bounding
 * the terms; the logs within one ulp; a product of 256 numbers within γ_256). Doubled for margin.
 */
function estimateBound(I: number, size: number): number {
  const u = 2 ** -53;
  if (I * u >= 0.25) return Infinity;
  const gamma = (I * u) / (1 - I * u);
  return 8 * gamma * (size + 1.4 * I) + I * 1e-15 + 1e-12;
}

/**
 * Whether EM stops: whether this iteration's log-likelihood gains less than `tolerance` on the last
 * one's. Decided from the estimates when their bounds leave no doubt either way, else from the
 * log-likelihoods themselves, summed as emLoop sums them: the same decision, and the same iterations,
 * without a log per group in almost every iteration. Not at the first iteration, whose gain over
 * −Infinity never stops EM.
 */
function converged(groups: Groups, I: number, tolerance: number): boolean {
  const gain = groups.estimate - groups.previousEstimate;
  const slack = groups.bound + groups.previousBound + 1e-9 * (Math.abs(gain) + tolerance);
  if (Number.isFinite(gain) && Number.isFinite(slack)) {
    if (gain - slack >= tolerance) return false;
    if (gain + slack < tolerance) return true;
  }
  return (
    exactLogLikelihood(groups, groups.terms, I) - exactLogLikelihood(groups, groups.previous, I) < tolerance
  );
}

/** The log-likelihood of the iteration whose terms are `terms`: Σ_i max + log(sum), item by item. */
function exactLogLikelihood(groups: Groups, terms: Float64Array, I: number): number {
  const { at, exact } = groups;
  for (let g = 0; g < exact.length; g++) exact[g] = terms[g * 2] + Math.log(terms[g * 2 + 1]);
  let ll = 0;
  for (let i = 0; i < I; i++) ll += exact[at[i] >> 2];
  return ll;
}

/**
 * One item's posteriors (observations from..to) into out[at..at+4), from the log priors lp, and into
 * terms[t], terms[t + 1] the largest log joint and the sum of exps (its log-likelihood term is
 * max + log(sum)). exp(0) is 1 exactly, so the most probable class skips its exp.
 */
function posterior4(
  from: number,
  to: number,
  base: Int32Array,
  logPi: Float64Array,
  lp: Float64Array,
  out: Float64Array,
  at: number,
  terms: Float64Array,
  t: number,
) {
  let a0 = lp[0],
    a1 = lp[1],
    a2 = lp[2],
    a3 = lp[3];
  for (let o = from; o < to; o++) {
    const b = base[o];
    a0 += logPi[b];
    a1 += logPi[b + 4];
    a2 += logPi[b + 8];
    a3 += logPi[b + 12];
  }
  const max = Math.max(Math.max(Math.max(Math.max(-Infinity, a0), a1), a2), a3);
  const d0 = a0 - max,
    d1 = a1 - max,
    d2 = a2 - max,
    d3 = a3 - max;
  const e0 = d0 === 0 ? 1 : Math.exp(d0),
    e1 = d1 === 0 ? 1 : Math.exp(d1),
    e2 = d2 === 0 ? 1 : Math.exp(d2),
    e3 = d3 === 0 ? 1 : Math.exp(d3);
  const sum = e0 + e1 + e2 + e3;
  out[at] = e0 / sum;
  out[at + 1] = e1 / sum;
  out[at + 2] = e2 / sum;
  out[at + 3] = e3 / sum;
  terms[t] = max;
  terms[t + 1] = sum;
}

/**
 * Items that share their observations (same raters, grades and order) have the same posteriors: one
 * E-step per group. Without sharing, each item is a group of its own, its posteriors in T.
 */
interface Groups {
  /** Where item i's posteriors are in `posteriors` (4 × its group). */
  at: Int32Array;
  /** One item of each group. */
  first: Int32Array;
  /** Per group, this iteration's posteriors. */
  posteriors: Float64Array;
  /** Per group, this iteration's and the last one's largest log joint and sum of exps. */
  terms: Float64Array;
  previous: Float64Array;
  /** Per group, a log-likelihood term (exactLogLikelihood's). */
  exact: Float64Array;
  /** This iteration's log priors. */
  logPriors: Float64Array;
  /** The log-likelihood's estimate and its error bound, this iteration's and the last one's. */
  estimate: number;
  bound: number;
  previousEstimate: number;
  previousBound: number;
}

/**
 * The groups of items with at most two observations each (a learning curve's first points, where
 * EM runs longest and many items repeat: 48 groups at one grade of twelve raters, about half as
 * many groups as items at two); each item alone when an item has more or most items are unique.
 */
function groupsOf(itemStart: Int32Array, base: Int32Array, cells: number, T: Float64Array): Groups {
  const I = itemStart.length - 1;
  const made = (at: Int32Array, first: Int32Array, posteriors: Float64Array): Groups => ({
    at,
    first,
    posteriors,
    terms: new Float64Array(first.length * 2),
    previous: new Float64Array(first.length * 2),
    exact: new Float64Array(first.length),
    logPriors: new Float64Array(4),
    estimate: -Infinity,
    bound: 0,
    previousEstimate: -Infinity,
    previousBound: 0,
  });
  const alone = (): Groups => {
    const at = new Int32Array(I);
    for (let i = 0; i < I; i++) at[i] = i * 4;
    const first = new Int32Array(I);
    for (let i = 0; i < I; i++) first[i] = i;
    return made(at, first, T);
  };
  const ids = new Map<number, number>();
  const at = new Int32Array(I);
  const first: number[] = [];
  for (let i = 0; i < I; i++) {
    const from = itemStart[i],
      count = itemStart[i + 1] - from;
    if (count > 2) return alone();
    const key =
      count === 0 ? 0 : count === 1 ? 1 + base[from] : 1 + cells + base[from] * cells + base[from + 1];
    let id = ids.get(key);
    if (id === undefined) {
      id = first.length;
      ids.set(key, id);
      first.push(i);
    }
    at[i] = id * 4;
  }
  if (first.length > 0.75 * I) return alone();
  return made(at, Int32Array.from(first), new Float64Array(first.length * 4));
}

/**
 * The observations by confusion cell (rater, grade): cell c's are entries[start[c] .. start[c+1]), each
 * the place of its item's posteriors (Groups.at), in the order of the observations.
 */
interface CellLists {
  start: Int32Array;
  entries: Int32Array;
}

function cellLists(itemStart: Int32Array, base: Int32Array, J: number, at: Int32Array): CellLists {
  // base = rater × 16 + grade; its cell, rater × 4 + grade.
  const cellOf = (b: number) => (b >> 4) * 4 + (b & 3);
  const start = new Int32Array(J * 4 + 1);
  for (let o = 0; o < base.length; o++) start[cellOf(base[o]) + 1]++;
  for (let c = 0; c < J * 4; c++) start[c + 1] += start[c];
  const fill = start.slice(0, J * 4);
  const entries = new Int32Array(base.length);
  for (let i = 0; i < itemStart.length - 1; i++)
    for (let o = itemStart[i]; o < itemStart[i + 1]; o++) entries[fill[cellOf(base[o])]++] = at[i];
  return { start, entries };
}

/** Each confusion cell's sums of its observations' posteriors, per true class, into counts. */
function sumCells({ start, entries }: CellLists, posteriors: Float64Array, counts: Float64Array) {
  for (let c = 0; c + 1 < start.length; c++) {
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let e = start[c]; e < start[c + 1]; e++) {
      const q = entries[e];
      s0 += posteriors[q];
      s1 += posteriors[q + 1];
      s2 += posteriors[q + 2];
      s3 += posteriors[q + 3];
    }
    const b = (c >> 2) * 16 + (c & 3);
    counts[b] = s0;
    counts[b + 4] = s1;
    counts[b + 8] = s2;
    counts[b + 12] = s3;
  }
}
