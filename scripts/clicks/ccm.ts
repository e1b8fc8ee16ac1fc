import { pyclickTail, skipTail } from "./chain";
import { lastClick, type ClickLog } from "./log";
import { ClickModel, type ModelOptions } from "./model";

/**
 * Click chain model (Guo et al. 2009): examined results are clicked with α_{q,d}; after no click the
 * user goes on with τ1; after a click, satisfied with probability α_{q,d}, with τ3 if satisfied and
 * τ2 if not. EM; relevance α².
 */
export class CCM extends ClickModel {
  readonly name = "CCM";
  readonly em = true;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly tau1 = this.param("cont_noclick", "global", "tau1");
  readonly tau2 = this.param("cont_click_nonrel", "global", "tau2");
  readonly tau3 = this.param("cont_click_rel", "global", "tau3");
  private readonly a: Float64Array;
  private readonly afterClick: Float64Array;
  private readonly afterSkip: Float64Array;
  private readonly w: Float64Array[];

  constructor(options: ModelOptions = {}) {
    super(options);
    const R = this.maxRank + 1;
    [this.a, this.afterClick, this.afterSkip] = [0, 1, 2].map(() => new Float64Array(R));
    this.w = Array.from({ length: 7 }, () => new Float64Array(R));
  }

  private load(log: ClickLog, s: number): number {
    const base = s * log.maxRank;
    const n = log.length[s];
    const t1 = this.tau1.value[0];
    const t2 = this.tau2.value[0];
    const t3 = this.tau3.value[0];
    for (let r = 0; r < n; r++) {
      const a = (this.a[r] = this.attr.value[log.pair[base + r]]);
      this.afterClick[r] = t2 * (1 - a) + t3 * a;
      this.afterSkip[r] = t1;
    }
    return n;
  }

  protected accumulate(log: ClickLog, s: number): void {
    if (this.mode === "pyclick") this.accumulatePyclick(log, s);
    else this.accumulateExact(log, s);
  }

  /** Textbook EM: exact posteriors of examination and satisfaction given every click of the session. */
  private accumulateExact(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const n = this.load(log, s);
    const a = this.a;
    const t1 = this.tau1.value[0];
    const t2 = this.tau2.value[0];
    const t3 = this.tau3.value[0];
    const nc = this.w[0];
    const post = this.w[1];
    const L = lastClick(log, s, -1);
    const start = L + 1;
    const f = L < 0 ? 1 : this.afterClick[L];
    const z = skipTail(n, start, f, a, t1, nc, post);
    const { attr, tau1, tau2, tau3 } = this;
    for (let r = 0; r < n; r++) {
      const p = log.pair[base + r];
      if (log.click[base + r]) {
        attr.dden[p] += 2;
        if (r < L) {
          // A later click: the user went on, satisfied (τ3) or not (τ2).
          const sat = (a[r] * t3) / (a[r] * t3 + (1 - a[r]) * t2);
          attr.dnum[p] += 1 + sat;
          tau3.dnum[0] += sat;
          tau3.dden[0] += sat;
          tau2.dnum[0] += 1 - sat;
          tau2.dden[0] += 1 - sat;
        } else {
          const next = r + 1 < n ? nc[r + 1] : 1;
          const s11 = a[r] * t3 * next;
          const s10 = a[r] * (1 - t3);
          const s01 = (1 - a[r]) * t2 * next;
          const s00 = (1 - a[r]) * (1 - t2);
          attr.dnum[p] += 1 + (s11 + s10) / z;
          if (r + 1 < n) {
            tau3.dnum[0] += s11 / z;
            tau3.dden[0] += (s11 + s10) / z;
            tau2.dnum[0] += s01 / z;
            tau2.dden[0] += (s01 + s00) / z;
          }
        }
        continue;
      }
      attr.dden[p] += 1;
      if (r >= start) attr.dnum[p] += (1 - post[r]) * a[r];
      if (r >= n - 1) continue;
      if (r < L) {
        tau1.dnum[0] += 1;
        tau1.dden[0] += 1;
      } else {
        tau1.dden[0] += post[r];
        tau1.dnum[0] += (post[r] * (1 - a[r]) * t1 * nc[r + 1]) / nc[r];
      }
    }
  }

  /** PyClick's CCM EM, departures included (CLICK-MODELS.md §4.8, §7.2–7.4). */
  private accumulatePyclick(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const n = this.load(log, s);
    const a = this.a;
    const t1 = this.tau1.value[0];
    const t2 = this.tau2.value[0];
    const t3 = this.tau3.value[0];
    const eps = this.w[0];
    const car = this.w[1];
    const click0 = this.w[2];
    const exam0 = this.w[3];
    const tailClick = this.w[4];
    const tailExam = this.w[5];
    const tailLog = this.w[6];
    const L = lastClick(log, s, n);
    eps[0] = 1;
    for (let r = 0; r < n; r++)
      eps[r + 1] = eps[r] * ((1 - a[r]) * t1 + a[r] * ((1 - a[r]) * t2 + a[r] * t3));
    car[n] = 0;
    for (let r = n - 1; r >= 0; r--) car[r] = a[r] + (1 - a[r]) * t1 * car[r + 1];
    pyclickTail(log.click, base, n, 0, a, this.afterClick, this.afterSkip, click0, exam0);
    for (let start = 1; start < n; start++) {
      pyclickTail(log.click, base, n, start, a, this.afterClick, this.afterSkip, tailClick, tailExam);
      let sum = 0;
      for (let k = 0; k < n - start; k++) sum += Math.log(tailClick[k]);
      tailLog[start] = sum;
    }
    const { attr, tau1, tau2, tau3 } = this;
    for (let r = 0; r < n; r++) {
      const p = log.pair[base + r];
      const c = log.click[base + r];
      if (c) {
        attr.dnum[p] += 1;
        if (r === L) attr.dnum[p] += a[r] / (1 - (t2 * (1 - a[r]) + t3 * a[r]) * car[r + 1]);
      } else if (r > L) attr.dnum[p] += ((1 - eps[r]) * a[r]) / (1 - eps[r] * car[r]);
      attr.dden[p] += 1 + c;
      const factor = (x: number, y: number, z: number): number => {
        let l: number;
        if (!c) {
          if (y) return 0;
          l = Math.log(1 - a[r]);
          if (x) l += Math.log(z ? t1 : 1 - t1);
          else if (z) return 0;
        } else {
          if (!x) return 0;
          l = Math.log(a[r]);
          if (!y) l += Math.log(1 - a[r]) + Math.log(z ? t2 : 1 - t2);
          else l += Math.log(a[r]) + Math.log(z ? t3 : 1 - t3);
        }
        if (!z) {
          if (L >= r + 1) return 0;
        } else if (r + 1 < n) l += tailLog[r + 1];
        l += Math.log(x ? exam0[r] : 1 - exam0[r]);
        return Math.exp(l);
      };
      const f: number[] = [];
      let total = 0;
      for (let x = 0; x < 2; x++)
        for (let y = 0; y < 2; y++)
          for (let z = 0; z < 2; z++) total += f[x * 4 + y * 2 + z] = factor(x, y, z);
      const f100 = f[4];
      const f101 = f[5];
      const f110 = f[6];
      const f111 = f[7];
      if (!c) {
        tau1.dnum[0] += (f101 + f111) / total;
        tau1.dden[0] += (f100 + f110 + f101 + f111) / total;
      } else {
        tau2.dnum[0] += f101 / total;
        tau2.dden[0] += (f100 + f101) / total;
        tau3.dnum[0] += f111 / total;
        tau3.dden[0] += (f110 + f111) / total;
      }
    }
  }

  /** P(C_r = 1) = α_r ε_r, ε_{r+1} = ε_r ((1 − α_r) τ1 + α_r ((1 − α_r) τ2 + α_r τ3)). */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const n = this.load(log, s);
    let e = 1;
    for (let r = 0; r < n; r++) {
      const a = this.a[r];
      out[r] = a * e;
      e *= (1 - a) * this.afterSkip[r] + a * this.afterClick[r];
    }
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const n = this.load(log, s);
    pyclickTail(log.click, s * log.maxRank, n, 0, this.a, this.afterClick, this.afterSkip, out, this.w[3]);
  }

  relevance(pair: number): number {
    return this.attr.value[pair] ** 2;
  }
}
