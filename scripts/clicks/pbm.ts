import type { ClickLog } from "./log";
import { ClickModel } from "./model";

/**
 * Position-based model (Richardson et al. 2007): P(C_r = 1) = α_{q,d} γ_r, fitted by EM. An unclicked
 * rank's posteriors: P(A = 1 | C = 0) = (1 − γ) α / (1 − γ α), P(E = 1 | C = 0) = (1 − α) γ / (1 − γ α).
 */
export class PBM extends ClickModel {
  readonly name = "PBM";
  readonly em = true;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly exam = this.param("exam", "rank", "examination");

  protected accumulate(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const av = this.attr.value;
    const an = this.attr.dnum;
    const ad = this.attr.dden;
    const ev = this.exam.value;
    const en = this.exam.dnum;
    const ed = this.exam.dden;
    for (let r = 0; r < log.length[s]; r++) {
      const p = log.pair[base + r];
      if (log.click[base + r]) {
        an[p] += 1;
        en[r] += 1;
      } else {
        const a = av[p];
        const g = ev[r];
        const none = 1 - g * a;
        an[p] += ((1 - g) * a) / none;
        en[r] += ((1 - a) * g) / none;
      }
      ad[p] += 1;
      ed[r] += 1;
    }
  }

  full(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    for (let r = 0; r < log.length[s]; r++) out[r] = this.attr.value[log.pair[base + r]] * this.exam.value[r];
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    for (let r = 0; r < log.length[s]; r++) {
      const p = this.attr.value[log.pair[base + r]] * this.exam.value[r];
      out[r] = log.click[base + r] ? p : 1 - p;
    }
  }

  relevance(pair: number): number {
    return this.attr.value[pair];
  }
}
