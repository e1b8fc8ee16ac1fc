import type { ClickLog } from "./log";
import { ClickModel, type Param } from "./model";

/** Shared by the three CTR baselines: P(C_r = 1) = θ, counted as clicks / impressions. */
abstract class CtrModel extends ClickModel {
  readonly em = false;
  protected abstract theta(log: ClickLog, s: number, r: number): number;
  protected abstract slot(log: ClickLog, s: number, r: number): number;
  protected abstract readonly ctr: Param;

  protected accumulate(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    for (let r = 0; r < log.length[s]; r++) {
      const i = this.slot(log, s, r);
      this.ctr.dnum[i] += log.click[base + r];
      this.ctr.dden[i] += 1;
    }
  }

  full(log: ClickLog, s: number, out: Float64Array): void {
    for (let r = 0; r < log.length[s]; r++) out[r] = this.theta(log, s, r);
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    for (let r = 0; r < log.length[s]; r++) {
      const t = this.theta(log, s, r);
      out[r] = log.click[base + r] ? t : 1 - t;
    }
  }
}

/** GCTR: one click-through rate for every rank and document; relevance is that constant. */
export class GCTR extends CtrModel {
  readonly name = "GCTR";
  protected readonly ctr = this.param("ctr", "global", "ctr");
  protected theta(): number {
    return this.ctr.value[0];
  }
  protected slot(): number {
    return 0;
  }
  relevance(): number {
    return this.ctr.value[0];
  }
}

/** RCTR: a click-through rate per rank; it says nothing of documents, so relevance is 0 (as PyClick). */
export class RCTR extends CtrModel {
  readonly name = "RCTR";
  protected readonly ctr = this.param("ctr", "rank", "ctr");
  protected theta(_log: ClickLog, _s: number, r: number): number {
    return this.ctr.value[r];
  }
  protected slot(_log: ClickLog, _s: number, r: number): number {
    return r;
  }
  relevance(): number {
    return 0;
  }
}

/** DCTR: a click-through rate per (query, document) pair, also its relevance. */
export class DCTR extends CtrModel {
  readonly name = "DCTR";
  protected readonly ctr = this.param("ctr", "pair", "ctr");
  protected theta(log: ClickLog, s: number, r: number): number {
    return this.ctr.value[log.pair[s * log.maxRank + r]];
  }
  protected slot(log: ClickLog, s: number, r: number): number {
    return log.pair[s * log.maxRank + r];
  }
  relevance(pair: number): number {
    return this.ctr.value[pair];
  }
}
