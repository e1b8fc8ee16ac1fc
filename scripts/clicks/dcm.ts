import { lastClick, type ClickLog } from "./log";
import { ClickModel } from "./model";

/**
 * Dependent click model (Guo et al. 2009): after a click at rank r the user goes on with
 * probability λ_r. Counted: α up to the last click (every rank without a click), λ_r at each click
 * (continued unless it is the last click).
 */
export class DCM extends ClickModel {
  readonly name = "DCM";
  readonly em = false;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly cont = this.param("cont", "rank", "continuation");

  protected accumulate(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const n = log.length[s];
    const L = lastClick(log, s, n);
    for (let r = 0; r < n; r++) {
      const c = log.click[base + r];
      const p = log.pair[base + r];
      if (r <= L) {
        this.attr.dnum[p] += c;
        this.attr.dden[p] += 1;
      }
      if (c) {
        this.cont.dnum[r] += r !== L ? 1 : 0;
        this.cont.dden[r] += 1;
      }
    }
  }

  /** ε_0 = 1; P(C_r = 1) = α_r ε_r; ε_{r+1} = ε_r (λ_r α_r + 1 − α_r). */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    let e = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const a = this.attr.value[log.pair[base + r]];
      out[r] = a * e;
      e *= this.cont.value[r] * a + 1 - a;
    }
  }

  /** Examination given the clicks above: λ_r after a click, e (1 − α_r) / P(no click) after none. */
  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    let e = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const a = this.attr.value[log.pair[base + r]];
      if (log.click[base + r]) {
        out[r] = a * e;
        e = this.cont.value[r];
      } else {
        out[r] = 1 - a * e;
        e = (e * (1 - a)) / out[r];
      }
    }
  }

  relevance(pair: number): number {
    return this.attr.value[pair];
  }
}
