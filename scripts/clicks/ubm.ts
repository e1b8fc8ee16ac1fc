import type { ClickLog } from "./log";
import { ClickModel } from "./model";

/**
 * User browsing model (Dupret & Piwowarski 2008): examination γ_{r,j} depends on the rank r and the
 * rank j of the previous click; "no click above" is column maxRank − 1 (PyClick's index −1; with
 * j ≤ r − 1 ≤ maxRank − 2 that column is free, so both modes agree). EM updates as PBM's.
 */
export class UBM extends ClickModel {
  readonly name = "UBM";
  readonly em = true;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly exam = this.param("exam", "rankPrev", "examination");

  protected accumulate(log: ClickLog, s: number): void {
    const R = log.maxRank;
    const base = s * R;
    const av = this.attr.value;
    const an = this.attr.dnum;
    const ad = this.attr.dden;
    const ev = this.exam.value;
    const en = this.exam.dnum;
    const ed = this.exam.dden;
    let j = R - 1;
    for (let r = 0; r < log.length[s]; r++) {
      const p = log.pair[base + r];
      const k = r * R + j;
      if (log.click[base + r]) {
        an[p] += 1;
        en[k] += 1;
        j = r;
      } else {
        const a = av[p];
        const g = ev[k];
        const none = 1 - g * a;
        an[p] += ((1 - g) * a) / none;
        en[k] += ((1 - a) * g) / none;
      }
      ad[p] += 1;
      ed[k] += 1;
    }
  }

  /** P_r = Σ_{j=−1}^{r−1} P_j Π_{k=j+1}^{r−1} (1 − α_k γ_{k,j}) α_r γ_{r,j}, P_{−1} = 1. */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const R = log.maxRank;
    const base = s * R;
    const n = log.length[s];
    for (let r = 0; r < n; r++) {
      const a = this.attr.value[log.pair[base + r]];
      let total = 0;
      for (let j = -1; j < r; j++) {
        const col = j < 0 ? R - 1 : j;
        let w = j < 0 ? 1 : out[j];
        for (let k = j + 1; k < r; k++)
          w *= 1 - this.attr.value[log.pair[base + k]] * this.exam.value[k * R + col];
        total += w * a * this.exam.value[r * R + col];
      }
      out[r] = total;
    }
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const R = log.maxRank;
    const base = s * R;
    let j = R - 1;
    for (let r = 0; r < log.length[s]; r++) {
      const p = this.attr.value[log.pair[base + r]] * this.exam.value[r * R + j];
      if (log.click[base + r]) {
        out[r] = p;
        j = r;
      } else out[r] = 1 - p;
    }
  }

  relevance(pair: number): number {
    return this.attr.value[pair];
  }
}
