import { firstClick, type ClickLog } from "./log";
import { ClickModel, PROB_MIN } from "./model";

/**
 * Cascade model (Craswell et al. 2008): the user scans down, clicks the first attractive result and
 * stops. α_{q,d} counted at the ranks up to the first click (all ranks of a click-less session).
 */
export class CM extends ClickModel {
  readonly name = "CM";
  readonly em = false;
  readonly attr = this.param("attr", "pair", "attractiveness");

  protected accumulate(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const f = firstClick(log, s);
    for (let r = 0; r < log.length[s] && r <= f; r++) {
      this.attr.dnum[log.pair[base + r]] += log.click[base + r];
      this.attr.dden[log.pair[base + r]] += 1;
    }
  }

  /** P(C_r = 1) = α_r Π_{i<r} (1 − α_i). */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    let none = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const a = this.attr.value[log.pair[base + r]];
      out[r] = a * none;
      none *= 1 - a;
    }
  }

  /**
   * Up to the first click: textbook α_r (the rank is examined), PyClick the unconditional P(C_r = 1)
   * [§7.5]. Below it the cascade allows no click: textbook 1 for no click and 1e-6 for a click (a
   * floor, so the log-likelihood stays finite), PyClick 1e-6 whatever happened.
   */
  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    const f = firstClick(log, s);
    let none = 1;
    for (let r = 0; r < log.length[s]; r++) {
      const c = log.click[base + r];
      const a = this.attr.value[log.pair[base + r]];
      if (r <= f) {
        const p = this.mode === "pyclick" ? a * none : a;
        out[r] = c ? p : 1 - p;
      } else out[r] = this.mode === "pyclick" || c ? PROB_MIN : 1;
      none *= 1 - a;
    }
  }

  /** α_{q,d}; PyClick's CM raises AttributeError here, so compat mode has no relevance. */
  relevance(pair: number): number | null {
    return this.mode === "pyclick" ? null : this.attr.value[pair];
  }
}
