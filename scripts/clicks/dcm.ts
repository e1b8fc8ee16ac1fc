import { lastClick, type ClickLog } from "./log";
import { ClickModel } from "./model";

/**
 * The dependent click model (Guo, Liu, Wang, WSDM 2009): the user examines top-down, clicks an
 * examined result with probability α_{q,d}, goes on after a click at rank r with probability λ_r and
 * always after a skip. Two estimators share the predictions below:
 * - `SDCM`, the simplified DCM (Chuklin, Markov, de Rijke 2015 §4.2), in closed form by counting under
 *   the extra assumption that the user stops after the last click;
 * - `DCM`, fitted by EM without that assumption (textbook mode).
 * PyClick's `DCM` is the counting SDCM with its initial counts (1, 2) added, so in `pyclick` mode both
 * names give PyClick's DCM, bit for bit (CLICK-MODELS.md §8.5).
 */
abstract class DependentClickModel extends ClickModel {
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly cont = this.param("cont", "rank", "continuation");

  /** Counting: α up to the last click (every rank without a click), λ_r at each click (continued unless last). */
  protected count(log: ClickLog, s: number): void {
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

/**
 * SDCM by counting. Textbook: the plain ratios Σ c / #impressions up to the last click and
 * #clicks-not-last / #clicks; a ratio with nothing counted (a pair shown only below the last click, a
 * rank never clicked) is undefined and predicts 0.5, as an unseen pair. PyClick: (1, 2) added.
 */
export class SDCM extends DependentClickModel {
  readonly name = "SDCM";
  readonly em = false;

  protected accumulate(log: ClickLog, s: number): void {
    this.count(log, s);
  }

  protected override plainRatios(): boolean {
    return this.mode !== "pyclick";
  }
}

/**
 * DCM by EM (textbook). After the last click l the user either stopped (1 − λ_l) or went on and
 * clicked nothing below: P(went on | clicks) = z = λ_l Π_{r>l}(1 − α_r) / (1 − λ_l + λ_l Π_{r>l}(1 − α_r)).
 * Ranks above l were examined (α counts the click or not); below it α counts (1 − z) α_r, and λ_l
 * counts z. A click-less session was examined to the end. In `pyclick` mode: PyClick's DCM (counting).
 */
export class DCM extends DependentClickModel {
  readonly name = "DCM";
  get em(): boolean {
    return this.mode !== "pyclick";
  }

  protected accumulate(log: ClickLog, s: number): void {
    if (this.mode === "pyclick") return this.count(log, s);
    const R = log.maxRank;
    const base = s * R;
    const n = log.length[s];
    const { pair, click } = log;
    const av = this.attr.value;
    const an = this.attr.dnum;
    const ad = this.attr.dden;
    let L = n - 1;
    while (L >= 0 && !click[base + L]) L--;
    let below = 1;
    for (let r = L + 1; r < n; r++) below *= 1 - av[pair[base + r]];
    const lambda = L >= 0 ? this.cont.value[L] : 1;
    const z = L >= 0 ? (lambda * below) / (1 - lambda + lambda * below) : 1;
    for (let r = 0; r < n; r++) {
      const p = pair[base + r];
      ad[p] += 1;
      if (click[base + r]) {
        an[p] += 1;
        this.cont.dnum[r] += r < L ? 1 : z;
        this.cont.dden[r] += 1;
      } else if (r > L) an[p] += (1 - z) * av[p];
    }
  }
}
