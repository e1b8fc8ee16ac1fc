import { taskStructure, type ClickLog, type TaskStructure } from "./log";
import { ClickModel, type Progress } from "./model";

/**
 * Task-centric click model (Zhang et al., KDD 2011) as PyClick's `TCM`, on top of PBM: a session of a
 * task matches the user's need with probability μ (`match`; an unmatched one gets no click and is
 * always followed by another session), a matched one is followed by another with probability ν
 * (`new`), and a document shown in an earlier session of the task is clickable only with probability
 * φ (`fresh`). Clicks: P(C_r = 1) = μ α_{q,d} γ_r f_r, f_r = φ for a repeated document, else 1.
 * Tasks come from the log (`RawSession.task`; a session without one is a task of its own).
 *
 * `pyclick` keeps PyClick's departures (CLICK-MODELS.md §8.7): the α, γ, φ updates marginalise the
 * match with the prior μ, μ and ν count once per rank, predictions are PBM's α γ, and every training
 * restarts from a fresh model. `textbook` uses the session's match posterior everywhere, counts μ and
 * ν once per session, continues from the counts held (as the other EM models) and predicts with μ and
 * the test session's freshness (given the clicks above: a click above means the session matched).
 */
export class TCM extends ClickModel {
  readonly name = "TCM";
  readonly em = true;
  readonly attr = this.param("attr", "pair", "attractiveness");
  readonly exam = this.param("exam", "rank", "examination");
  readonly match = this.param("match", "global", "match");
  readonly next = this.param("new", "global", "newQuery");
  readonly fresh = this.param("fresh", "global", "freshness");

  override train(log: ClickLog, progress?: Progress): void {
    if (this.mode !== "pyclick") return super.train(log, progress);
    // PyClick's TaskCentricEMInference builds a fresh TCM every iteration and replaces the model with
    // it: counts restart at (1, 2), and a pair the log does not show is back to 0.5 afterwards.
    for (const p of this.params) {
      p.num.fill(1);
      p.den.fill(2);
    }
    this.ensure(log.vocabulary.pairCount);
    const shown = new Uint8Array(this.attr.value.length);
    for (let i = 0; i < log.size * log.maxRank; i++) if (log.pair[i] >= 0) shown[log.pair[i]] = 1;
    super.train(log, progress);
    for (const p of this.params) {
      if (p.kind !== "pair") continue;
      for (let i = 0; i < shown.length; i++) {
        if (shown[i]) continue;
        p.num[i] = 1;
        p.den[i] = 2;
        p.value[i] = 0.5;
      }
    }
  }

  /** The task structure of the log being read, looked up once per log rather than per session. */
  private structureOf(log: ClickLog): TaskStructure {
    if (this.structureLog !== log) {
      this.structure = taskStructure(log);
      this.structureLog = log;
    }
    return this.structure!;
  }
  private structureLog: ClickLog | null = null;
  private structure: TaskStructure | null = null;

  protected accumulate(log: ClickLog, s: number): void {
    const { repeated, last } = this.structureOf(log);
    const { pair, click } = log;
    const av = this.attr.value;
    const an = this.attr.dnum;
    const ad = this.attr.dden;
    const ev = this.exam.value;
    const en = this.exam.dnum;
    const ed = this.exam.dden;
    const mu = this.match.value[0];
    const nu = this.next.value[0];
    const phi = this.fresh.value[0];
    const base = s * log.maxRank;
    const n = log.length[s];
    // PBM's P(no click) over the session, freshness included.
    let none = 1;
    let clicked = false;
    for (let r = 0; r < n; r++) {
      if (click[base + r]) clicked = true;
      none *= 1 - av[pair[base + r]] * ev[r] * (repeated[base + r] ? phi : 1);
    }
    // Only a click-less session that another follows can be unmatched.
    const pm = clicked || last[s] ? 1 : 1 / (1 + (1 / mu - 1) / (none * nu));
    const pyclick = this.mode === "pyclick";
    // PyClick marginalises the match with μ at every rank; textbook conditions on the session's posterior.
    const m = pyclick ? mu : 1;
    const w = pyclick ? 1 : pm;
    let freshNum = 0;
    let freshDen = 0;
    for (let r = 0; r < n; r++) {
      const p = pair[base + r];
      const rep = repeated[base + r];
      ad[p] += 1;
      ed[r] += 1;
      freshDen += rep;
      if (click[base + r]) {
        an[p] += 1;
        en[r] += 1;
        freshNum += rep;
        continue;
      }
      const a = av[p];
      const g = ev[r];
      const f = rep ? phi : 1;
      const q = 1 - g * a * f * m;
      an[p] += (w * ((1 - g * f * m) * a)) / q + (1 - w) * a;
      en[r] += (w * ((1 - a * f * m) * g)) / q + (1 - w) * g;
      if (rep) freshNum += (w * ((1 - g * a * m) * phi)) / q + (1 - w) * phi;
    }
    this.fresh.dnum[0] += freshNum;
    this.fresh.dden[0] += freshDen;
    const times = pyclick ? n : 1;
    this.match.dnum[0] += pm * times;
    this.match.dden[0] += times;
    if (!last[s]) this.next.dnum[0] += pm * times;
    this.next.dden[0] += pm * times;
  }

  full(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    const textbook = this.mode !== "pyclick";
    const repeated = textbook ? this.structureOf(log).repeated : null;
    const scale = textbook ? this.match.value[0] : 1;
    for (let r = 0; r < log.length[s]; r++) {
      const f = repeated?.[base + r] ? this.fresh.value[0] : 1;
      out[r] = scale * this.attr.value[log.pair[base + r]] * this.exam.value[r] * f;
    }
  }

  conditional(log: ClickLog, s: number, out: Float64Array): void {
    const base = s * log.maxRank;
    if (this.mode === "pyclick") {
      this.full(log, s, out);
      for (let r = 0; r < log.length[s]; r++) if (!log.click[base + r]) out[r] = 1 - out[r];
      return;
    }
    const { repeated } = this.structureOf(log);
    const mu = this.match.value[0];
    // P(matched | clicks above): 1 after a click, else μ Π(1 − α γ f) / (μ Π(1 − α γ f) + 1 − μ).
    let none = 1;
    let matched = false;
    for (let r = 0; r < log.length[s]; r++) {
      const f = repeated[base + r] ? this.fresh.value[0] : 1;
      const click = this.attr.value[log.pair[base + r]] * this.exam.value[r] * f;
      const pm = matched ? 1 : (mu * none) / (mu * none + 1 - mu);
      out[r] = log.click[base + r] ? pm * click : 1 - pm * click;
      if (log.click[base + r]) matched = true;
      else none *= 1 - click;
    }
  }

  relevance(pair: number): number {
    return this.attr.value[pair];
  }
}
