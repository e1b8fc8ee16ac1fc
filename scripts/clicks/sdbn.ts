import { lastClick, type ClickLog } from "./log";
import { ClickModel } from "./model";

/**
 * Simplified DBN (γ = 1): every rank up to the last click is examined (all ranks without a click),
 * and the last click is the satisfying one. α and σ are counted.
 */
export class SDBN extends ClickModel {
  readonly name = "SDBN";
  readonly em = false;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly sat = this.param("sat", "pair", "satisfaction");

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
        this.sat.dnum[p] += r === L ? 1 : 0;
        this.sat.dden[p] += 1;
      }
    }
  }

  /** ε_0 = 1; P(C_r = 1) = α_r ε_r; ε_{r+1} = ε_r ((1 − σ_r) α_r + 1 − α_r). */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    let e = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const p = log.pair[base + r];
      const a = this.attr.value[p];
      out[r] = a * e;
      e *= (1 - this.sat.value[p]) * a + 1 - a;
    }
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    let e = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const p = log.pair[base + r];
      const a = this.attr.value[p];
      if (log.click[base + r]) {
        out[r] = a * e;
        e = 1 - this.sat.value[p];
      } else {
        out[r] = 1 - a * e;
        e = (e * (1 - a)) / out[r];
      }
    }
  }

  relevance(pair: number): number {
    return this.attr.value[pair] * this.sat.value[pair];
  }
}
