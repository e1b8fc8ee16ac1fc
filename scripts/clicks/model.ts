import type { ClickLog, Vocabulary } from "./log";

/**
 * `textbook` follows Chuklin, Markov and de Rijke, *Click Models for Web Search* (2015); `pyclick`
 * reproduces PyClick 98e7e460 exactly, departures included (CLICK-MODELS.md §7).
 */
export type Mode = "textbook" | "pyclick";

/** EM values are clamped below 1 (PyClick's `ParamEM.value`: min(num/den, 1 − 1e-6)). */
export const PROB_MIN = 1e-6;

export type ParamKind = "pair" | "rank" | "rankPrev" | "global";

/**
 * One parameter container as counts `(num, den)`, each created as (1, 2): value 0.5. `dnum`/`dden`
 * collect one pass's updates; `value` is what the updates and predictions read.
 */
export interface Param {
  /** PyClick's name (attr, sat, cont, exam, …). */
  name: string;
  /** The name in Assay's JSON (attractiveness, satisfaction, gamma, examination, …). */
  label: string;
  kind: ParamKind;
  num: Float64Array;
  den: Float64Array;
  dnum: Float64Array;
  dden: Float64Array;
  value: Float64Array;
}

export interface ModelOptions {
  mode?: Mode;
  maxRank?: number;
  iterations?: number;
}

export type Progress = (done: number, total: number) => void;

/**
 * A click model over a `ClickLog`. Subclasses declare their parameters and give, per session, the
 * updates (`accumulate`, reading only `value`), the click probabilities and the relevance of a pair.
 */
export abstract class ClickModel {
  abstract readonly name: string;
  /** Fitted by EM (iterations restarting from the counts held when `train` is called) or by counting. */
  abstract readonly em: boolean;
  readonly mode: Mode;
  readonly maxRank: number;
  readonly iterations: number;
  readonly params: Param[] = [];
  /** Pairs some training session touched (the ones whose parameters are reported). */
  trained = new Uint8Array(0);
  private seen = new Uint8Array(0);

  constructor(options: ModelOptions = {}) {
    this.mode = options.mode ?? "textbook";
    this.maxRank = options.maxRank ?? 10;
    this.iterations = options.iterations ?? 50;
  }

  protected param(name: string, kind: ParamKind, label: string): Param {
    const size =
      kind === "rank"
        ? this.maxRank
        : kind === "rankPrev"
          ? this.maxRank * this.maxRank
          : kind === "global"
            ? 1
            : 0;
    const p: Param = {
      name,
      label,
      kind,
      num: new Float64Array(size).fill(1),
      den: new Float64Array(size).fill(2),
      dnum: new Float64Array(size),
      dden: new Float64Array(size),
      value: new Float64Array(size).fill(0.5),
    };
    this.params.push(p);
    return p;
  }

  /** Grows the per-pair arrays to the vocabulary's size; new pairs start at (1, 2). */
  ensure(pairCount: number): void {
    if (this.trained.length >= pairCount) return;
    const size = Math.max(pairCount, Math.ceil(this.trained.length * 1.5));
    const grow = (a: Float64Array, fill: number) => {
      const b = new Float64Array(size).fill(fill);
      b.set(a);
      return b;
    };
    for (const p of this.params) {
      if (p.kind !== "pair") continue;
      p.num = grow(p.num, 1);
      p.den = grow(p.den, 2);
      p.dnum = grow(p.dnum, 0);
      p.dden = grow(p.dden, 0);
      p.value = grow(p.value, 0.5);
    }
    const trained = new Uint8Array(size);
    trained.set(this.trained);
    this.trained = trained;
  }

  /**
   * Whether values are the counts' plain ratios, without the initial (1, 2) (SDCM's closed form); a
   * ratio with nothing counted is then undefined and reads 0.5, as an unseen pair.
   */
  protected plainRatios(): boolean {
    return false;
  }

  /** Adds the session's updates to `dnum`/`dden`, from the current `value`s. */
  protected abstract accumulate(log: ClickLog, s: number): void;
  /** `out[r]` = P(C_r = 1), unconditional. */
  abstract full(log: ClickLog, s: number, out: Float64Array): void;
  /** `out[r]` = probability of the observed click value at r given the clicks above r. */
  abstract conditional(log: ClickLog, s: number, out: Float64Array): void;
  /** Predicted relevance of a pair; null when the model has none (PyClick's CM raises). */
  abstract relevance(pair: number): number | null;

  /**
   * Fits on `log`, continuing from the counts held now (CLICK-MODELS.md §3): counting models add
   * the sessions' counts; EM models run `iterations` passes, each restarting from those counts and
   * reading the previous pass's values.
   */
  train(log: ClickLog, progress?: Progress): void {
    const touched = this.touchedPairs(log);
    for (let k = 0; k < touched.length; k++) this.trained[touched[k]] = 1;
    const passes = this.em ? this.iterations : 1;
    const clamp = this.em ? 1 - PROB_MIN : Infinity;
    const [n0, d0] = this.plainRatios() ? [1, 2] : [0, 0];
    for (let it = 0; it < passes; it++) {
      for (const p of this.params) {
        const { dnum, dden } = p;
        if (p.kind !== "pair") {
          dnum.fill(0);
          dden.fill(0);
        } else for (let k = 0; k < touched.length; k++) dnum[touched[k]] = dden[touched[k]] = 0;
      }
      for (let s = 0; s < log.size; s++) this.accumulate(log, s);
      for (const p of this.params) {
        const { num, den, dnum, dden, value } = p;
        const count = p.kind === "pair" ? touched.length : value.length;
        for (let k = 0; k < count; k++) {
          const i = p.kind === "pair" ? touched[k] : k;
          const d = den[i] + dden[i] - d0;
          value[i] = d > 0 ? Math.min((num[i] + dnum[i] - n0) / d, clamp) : 0.5;
        }
      }
      progress?.(it + 1, passes);
    }
    for (const p of this.params) {
      const { num, den, dnum, dden, value } = p;
      const count = p.kind === "pair" ? touched.length : value.length;
      for (let k = 0; k < count; k++) {
        const i = p.kind === "pair" ? touched[k] : k;
        num[i] += dnum[i];
        den[i] += dden[i];
      }
    }
  }

  /**
   * Trains on `log` and returns a function that puts the model back as it was, in time proportional
   * to the pairs `log` touches (CTR@1 prediction trains once per test list).
   */
  trainReverting(log: ClickLog): () => void {
    const touched = this.touchedPairs(log);
    const saved = this.params.map((p) => {
      if (p.kind !== "pair") return [p.num.slice(), p.den.slice(), p.value.slice()];
      const at = (a: Float64Array) => Float64Array.from(touched, (i) => a[i]);
      return [at(p.num), at(p.den), at(p.value)];
    });
    const trained = Uint8Array.from(touched, (i) => this.trained[i]);
    this.train(log);
    return () => {
      this.params.forEach((p, k) => {
        const [num, den, value] = saved[k];
        if (p.kind !== "pair") {
          p.num.set(num);
          p.den.set(den);
          p.value.set(value);
          return;
        }
        touched.forEach((i, j) => {
          p.num[i] = num[j];
          p.den[i] = den[j];
          p.value[i] = value[j];
        });
      });
      touched.forEach((i, j) => (this.trained[i] = trained[j]));
    };
  }

  /** The distinct pairs of `log`, after growing the arrays to its vocabulary. */
  private touchedPairs(log: ClickLog): Int32Array {
    this.ensure(log.vocabulary.pairCount);
    if (this.seen.length < this.trained.length) this.seen = new Uint8Array(this.trained.length);
    const touched: number[] = [];
    for (let i = 0; i < log.size * log.maxRank; i++) {
      const p = log.pair[i];
      if (p >= 0 && !this.seen[p]) {
        this.seen[p] = 1;
        touched.push(p);
      }
    }
    for (const p of touched) this.seen[p] = 0;
    return Int32Array.from(touched);
  }

  /**
   * The fitted values under PyClick's names (`{attr: {query: {doc: value}}, exam: […], cont: …}`), for
   * the pairs training touched; a per-(rank, previous click) parameter is a matrix [rank][previous].
   */
  pyclickValues(vocabulary: Vocabulary): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of this.params) {
      if (p.kind === "pair") out[p.name] = this.byPair(vocabulary, (i, put) => put(p.value[i]));
      else out[p.name] = this.shaped(p);
    }
    return out;
  }

  /**
   * The fitted values as Assay reports them: per pair `{pairs: {query: {doc: {attractiveness, …}}}}`,
   * then each rank or global parameter under its name (`gamma`, `examination`, …).
   */
  values(vocabulary: Vocabulary): Record<string, unknown> {
    const pairParams = this.params.filter((p) => p.kind === "pair");
    const out: Record<string, unknown> = {};
    if (pairParams.length) {
      out.pairs = this.byPair(vocabulary, (i, put) =>
        put(Object.fromEntries(pairParams.map((p) => [p.label, p.value[i]]))),
      );
    }
    for (const p of this.params) if (p.kind !== "pair") out[p.label] = this.shaped(p);
    return out;
  }

  private shaped(p: Param): unknown {
    const R = this.maxRank;
    if (p.kind === "global") return p.value[0];
    if (p.kind === "rank") return Array.from(p.value);
    return Array.from({ length: R }, (_, r) => Array.from(p.value.subarray(r * R, (r + 1) * R)));
  }

  private byPair<T>(vocabulary: Vocabulary, each: (pair: number, put: (value: T) => void) => void) {
    const byQuery: Record<string, Record<string, T>> = {};
    for (let i = 0; i < vocabulary.pairCount; i++) {
      if (!this.trained[i]) continue;
      each(
        i,
        (value) =>
          ((byQuery[vocabulary.queries[vocabulary.pairQuery[i]]] ??= {})[vocabulary.pairDoc[i]] = value),
      );
    }
    return byQuery;
  }
}
