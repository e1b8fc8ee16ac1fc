import { pyclickTail, skipTail } from "./chain";
import { lastClick, type ClickLog } from "./log";
import { ClickModel, type ModelOptions } from "./model";

/**
 * Dynamic Bayesian network (Chapelle & Zhang 2009): examined results are clicked with α_{q,d}; a click
 * satisfies with σ_{q,d} and ends the session; otherwise the user goes on with γ (`cont`). EM.
 */
export class DBN extends ClickModel {
  readonly name = "DBN";
  readonly em = true;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly sat = this.param("sat", "pair", "satisfaction");
  readonly cont = this.param("cont", "global", "gamma");
  private readonly a: Float64Array;
  private readonly sg: Float64Array;
  private readonly afterClick: Float64Array;
  private readonly afterSkip: Float64Array;
  private readonly w: Float64Array[];

  constructor(options: ModelOptions = {}) {
    super(options);
    const R = this.maxRank + 1;
    [this.a, this.sg, this.afterClick, this.afterSkip] = [0, 1, 2, 3].map(() => new Float64Array(R));
    this.w = Array.from({ length: 6 + R }, () => new Float64Array(R));
  }

  /** Reads the session's α, σ and continuation into scratch arrays; returns the session length. */
  private load(log: ClickLog, s: number): number {
    const base = s * log.maxRank;
    const n = log.length[s];
    const g = this.cont.value[0];
    for (let r = 0; r < n; r++) {
      const p = log.pair[base + r];
      this.a[r] = this.attr.value[p];
      this.sg[r] = this.sat.value[p];
      this.afterClick[r] = g * (1 - this.sg[r]);
      this.afterSkip[r] = g;
    }
    return n;
  }

  protected accumulate(log: ClickLog, s: number): void {
    if (this.mode === "pyclick") this.accumulatePyclick(log, s);
    else this.accumulateExact(log, s);
  }

  /** Textbook EM: posteriors of E_r, S_r given every click of the session (a click-less one has no last click). */
  private accumulateExact(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const n = this.load(log, s);
    const { a, sg } = this;
    const g = this.cont.value[0];
    const nc = this.w[0];
    const post = this.w[1];
    const L = lastClick(log, s, -1);
    const start = L + 1;
    const f = L < 0 ? 1 : (1 - sg[L]) * g;
    const z = skipTail(n, start, f, a, g, nc, post);
    const an = this.attr.dnum;
    const ad = this.attr.dden;
    const sn = this.sat.dnum;
    const sd = this.sat.dden;
    let cn = 0;
    let cd = 0;
    for (let r = 0; r < n; r++) {
      const p = log.pair[base + r];
      ad[p] += 1;
      if (log.click[base + r]) {
        an[p] += 1;
        sd[p] += 1;
        if (r === L) sn[p] += sg[r] / z;
      } else if (r >= start) an[p] += (1 - post[r]) * a[r];
      if (r >= n - 1) continue;
      // Continuation is seen only on transitions to a rank of the list.
      if (r < L) {
        cn += 1;
        cd += 1;
      } else if (r === L) {
        cn += ((1 - sg[r]) * g * nc[r + 1]) / z;
        cd += ((1 - sg[r]) * (1 - g + g * nc[r + 1])) / z;
      } else {
        cd += post[r];
        cn += (post[r] * (1 - a[r]) * g * nc[r + 1]) / nc[r];
      }
    }
    this.cont.dnum[0] += cn;
    this.cont.dden[0] += cd;
  }

  /** PyClick's DBN EM, departures included (CLICK-MODELS.md §4.7, §7.1–7.3). */
  private accumulatePyclick(log: ClickLog, s: number): void {
    const base = s * log.maxRank;
    const n = this.load(log, s);
    const { a, sg } = this;
    const g = this.cont.value[0];
    const eps = this.w[0];
    const car = this.w[1];
    const click0 = this.w[2];
    const exam0 = this.w[3];
    const tailClick = this.w[4];
    const tailExam = this.w[5];
    const tailLog = this.w[6];
    const L = lastClick(log, s, n);
    eps[0] = 1;
    for (let r = 0; r < n; r++) eps[r + 1] = eps[r] * g * ((1 - sg[r]) * a[r] + 1 - a[r]);
    car[n] = 0;
    for (let r = n - 1; r >= 0; r--) car[r] = a[r] + (1 - a[r]) * g * car[r + 1];
    pyclickTail(log.click, base, n, 0, a, this.afterClick, this.afterSkip, click0, exam0);
    for (let start = 1; start < n; start++) {
      pyclickTail(log.click, base, n, start, a, this.afterClick, this.afterSkip, tailClick, tailExam);
      let sum = 0;
      for (let k = 0; k < n - start; k++) sum += Math.log(tailClick[k]);
      tailLog[start] = sum;
    }
    const { attr, sat, cont } = this;
    const lg = Math.log(g);
    const l1g = Math.log(1 - g);
    for (let r = 0; r < n; r++) {
      const p = log.pair[base + r];
      const c = log.click[base + r];
      if (c) attr.dnum[p] += 1;
      else if (r > L) attr.dnum[p] += ((1 - eps[r]) * a[r]) / (1 - eps[r] * car[r]);
      attr.dden[p] += 1;
      if (c) {
        if (r === L) sat.dnum[p] += sg[r] / (1 - (1 - sg[r]) * g * car[r + 1]);
        sat.dden[p] += 1;
      }
      // f(x, y, z) ∝ P(E_r = x, S_r = y, E_{r+1} = z, C), as PyClick's _get_continuation_factor.
      const factor = (x: number, y: number, z: number): number => {
        let l: number;
        if (!c) {
          if (y) return 0;
          l = Math.log(1 - a[r]);
          if (x) l += z ? lg : l1g;
          else if (z) return 0;
        } else {
          if (!x) return 0;
          l = Math.log(a[r]);
          if (!y) l += Math.log(1 - sg[r]) + (z ? lg : l1g);
          else {
            if (z) return 0;
            l += Math.log(sg[r]);
          }
        }
        if (!z) {
          if (L >= r + 1) return 0;
        } else if (r + 1 < n) l += tailLog[r + 1];
        l += Math.log(x ? exam0[r] : 1 - exam0[r]);
        return Math.exp(l);
      };
      let total = 0;
      for (let x = 0; x < 2; x++)
        for (let y = 0; y < 2; y++) for (let z = 0; z < 2; z++) total += factor(x, y, z);
      const f101 = factor(1, 0, 1);
      cont.dnum[0] += f101 / total;
      cont.dden[0] += (factor(1, 0, 0) + f101) / total;
    }
  }

  /** P(C_r = 1) = α_r ε_r with ε_{r+1} = ε_r γ ((1 − σ_r) α_r + 1 − α_r). */
  full(log: ClickLog, s: number, out: Float64Array): void {
    const n = this.load(log, s);
    let e = 1;
    for (let r = 0; r < n; r++) {
      out[r] = this.a[r] * e;
      e *= this.cont.value[0] * ((1 - this.sg[r]) * this.a[r] + 1 - this.a[r]);
    }
  }

  /** T(0).click: from rank 0 both modes read each rank's own parameters. */
  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const n = this.load(log, s);
    pyclickTail(log.click, s * log.maxRank, n, 0, this.a, this.afterClick, this.afterSkip, out, this.w[3]);
  }

  relevance(pair: number): number {
    return this.attr.value[pair] * this.sat.value[pair];
  }
}
