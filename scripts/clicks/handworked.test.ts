import { buildLog, Vocabulary, type RawSession } from "./log";
import { auc, logLikelihood, perplexity } from "./measures";
import type { ClickModel, Mode } from "./model";
import { createModel } from "./models";

// Two sessions of one query worked by hand. A: results a b c, click on b. B: b a c, no click.
// Every count starts at (1, 2), value 1/2 (CLICK-MODELS.md §2).
const A: RawSession = { id: "A", query: "q", results: ["a", "b", "c"], clicks: [0, 1, 0] };
const B: RawSession = { id: "B", query: "q", results: ["b", "a", "c"], clicks: [0, 0, 0] };

function fit(name: string, sessions: RawSession[], options: { mode?: Mode; iterations?: number } = {}) {
  const vocabulary = new Vocabulary();
  const log = buildLog(sessions, vocabulary, 3);
  const model = createModel(name, { maxRank: 3, ...options });
  model.train(log);
  const pair = (doc: string) => vocabulary.findPair("q", doc);
  const value = (param: string, doc: string) => model.params.find((p) => p.name === param)!.value[pair(doc)];
  const probs = (s: number, conditional: boolean) => {
    const out = new Float64Array(3);
    if (conditional) model.conditional(log, s, out);
    else model.full(log, s, out);
    return Array.from(out);
  };
  return {
    model,
    log,
    value,
    probs,
    global: (param: string) => Array.from(model.params.find((p) => p.name === param)!.value),
  };
}

const close = (actual: number[], wanted: number[]) =>
  actual.forEach((a, i) => expect(a).toBeCloseTo(wanted[i], 12));

describe("counting models, worked by hand", () => {
  it("GCTR: (1 + clicks) / (2 + impressions)", () => {
    close(fit("GCTR", [A]).global("ctr"), [(1 + 1) / (2 + 3)]);
    close(fit("GCTR", [A, B]).global("ctr"), [(1 + 1) / (2 + 6)]);
  });

  it("RCTR: per rank, and relevance 0 for every document", () => {
    const { global, model } = fit("RCTR", [A, B]);
    close(global("ctr"), [1 / 4, 2 / 4, 1 / 4]); // rank 1 (0-based): one click in two sessions
    expect(model.relevance(0)).toBe(0);
  });

  it("DCTR: per pair, wherever shown", () => {
    const { value } = fit("DCTR", [A, B]);
    close(
      ["a", "b", "c"].map((d) => value("ctr", d)),
      [1 / 4, 2 / 4, 1 / 4],
    );
  });

  it("CM: counts up to the first click; p is the unconditional probability (PyClick) or α (textbook)", () => {
    const one = fit("CM", [A], { mode: "pyclick" });
    // a seen unclicked (1/3), b clicked (2/3), c below the first click: not counted.
    close(
      ["a", "b", "c"].map((d) => one.value("attr", d)),
      [1 / 3, 2 / 3, 1 / 2],
    );
    // P(C_1) = α_b (1 − α_a) = 4/9; below the first click PyClick gives 1e-6.
    close(one.probs(0, true), [2 / 3, 4 / 9, 1e-6]);
    close(fit("CM", [A]).probs(0, true), [2 / 3, 2 / 3, 1]);
    // B has no click: every rank counts. a: 1/4, b: 2/4, c: 1/3.
    const two = fit("CM", [A, B]);
    close(
      ["a", "b", "c"].map((d) => two.value("attr", d)),
      [1 / 4, 2 / 4, 1 / 3],
    );
  });

  it("DCM as PyClick (= SDCM with counts 1, 2): α up to the last click, λ_r from each click", () => {
    const { value, global, probs } = fit("DCM", [A], { mode: "pyclick" });
    close(
      ["a", "b", "c"].map((d) => fit("SDCM", [A], { mode: "pyclick" }).value("attr", d)),
      [1 / 3, 2 / 3, 1 / 2],
    );
    close(
      ["a", "b", "c"].map((d) => value("attr", d)),
      [1 / 3, 2 / 3, 1 / 2],
    );
    close(global("cont"), [1 / 2, 1 / 3, 1 / 2]);
    // ε: 1, λ_0 α_a + 1 − α_a = 5/6, then 5/6 (λ_1 α_b + 1 − α_b) = 25/54.
    close(probs(0, false), [1 / 3, (2 / 3) * (5 / 6), (1 / 2) * (25 / 54)]);
    // Given the clicks above: 1 − 1/3; e stays 1, so 2/3; after the click e = λ_1 = 1/3: 1 − 1/6.
    close(probs(0, true), [2 / 3, 2 / 3, 5 / 6]);
  });

  it("SDCM textbook: the plain ratios; nothing counted (c below the last click, ranks 0 and 2) is 0.5", () => {
    const { value, global } = fit("SDCM", [A]);
    close(
      ["a", "b", "c"].map((d) => value("attr", d)),
      [0, 1, 1 / 2],
    );
    close(global("cont"), [1 / 2, 0, 1 / 2]);
  });

  it("DCM textbook by EM: below the last click, the user went on with z = λ(1 − α_c) / (1 − λ + λ(1 − α_c))", () => {
    // From 0.5 everywhere: z = 0.25 / 0.75 = 1/3; c counts (1 − z) α_c = 1/3; λ_1 counts z.
    const { value, global } = fit("DCM", [A], { iterations: 1 });
    close(
      ["a", "b", "c"].map((d) => value("attr", d)),
      [1 / 3, 2 / 3, 4 / 9],
    );
    close(global("cont"), [1 / 2, 4 / 9, 1 / 2]);
  });

  it("SDBN: the last click satisfies; a session without clicks examines every rank", () => {
    const one = fit("SDBN", [A]);
    close(
      ["a", "b", "c"].map((d) => one.value("attr", d)),
      [1 / 3, 2 / 3, 1 / 2],
    );
    expect(one.value("sat", "b")).toBeCloseTo(2 / 3, 12);
    expect(one.model.relevance(one.log.pair[1])).toBeCloseTo((2 / 3) * (2 / 3), 12);
    const noClick = fit("SDBN", [B]);
    close(
      ["a", "b", "c"].map((d) => noClick.value("attr", d)),
      [1 / 3, 1 / 3, 1 / 3],
    );
  });
});

describe("EM models, one iteration worked by hand (previous values all 1/2)", () => {
  // An unclicked rank adds P(A = 1 | C = 0) = (1 − γ) α / (1 − γ α) = (1/4) / (3/4) = 1/3, and the same to γ.
  it("PBM on A, then on A and B", () => {
    const one = fit("PBM", [A], { iterations: 1 });
    close(
      ["a", "b", "c"].map((d) => one.value("attr", d)),
      [4 / 9, 2 / 3, 4 / 9],
    );
    close(one.global("exam"), [4 / 9, 2 / 3, 4 / 9]);
    const two = fit("PBM", [A, B], { iterations: 1 });
    close(
      ["a", "b", "c"].map((d) => two.value("attr", d)),
      [5 / 12, 7 / 12, 5 / 12],
    );
    close(two.global("exam"), [5 / 12, 7 / 12, 5 / 12]);
  });

  it("UBM on A: γ indexed by rank and previous click (column maxRank − 1 = no click above)", () => {
    const { global } = fit("UBM", [A], { iterations: 1 });
    const exam = global("exam");
    expect(exam[0 * 3 + 2]).toBeCloseTo(4 / 9, 12);
    expect(exam[1 * 3 + 2]).toBeCloseTo(2 / 3, 12);
    expect(exam[2 * 3 + 1]).toBeCloseTo(4 / 9, 12);
    expect(exam[2 * 3 + 2]).toBe(0.5);
  });

  it("DBN textbook on A: exact posteriors below the last click", () => {
    // P(no click on c | click on b) = Z = σ + (1 − σ)(1 − γ + γ (1 − α_c)) = 1/2 + 1/2 · 3/4 = 7/8;
    // P(E_c = 1 | clicks) = (1 − σ) γ (1 − α_c) / Z = 1/7; P(S_b = 1 | clicks) = σ / Z = 4/7.
    const { value, global } = fit("DBN", [A], { iterations: 1 });
    close(
      ["a", "b", "c"].map((d) => value("attr", d)),
      [1 / 3, 2 / 3, (1 + (6 / 7) * (1 / 2)) / 3],
    );
    expect(value("sat", "b")).toBeCloseTo((1 + 4 / 7) / 3, 12);
    // γ: a→b continued (1/1); b→c: P(S_b = 0, E_c = 1) = 1/7 over P(S_b = 0) = 3/7; c is last: no transition.
    close(global("cont"), [(1 + 1 + 1 / 7) / (2 + 1 + 3 / 7)]);
  });

  it("DBN PyClick on A: marginal examination in the α update", () => {
    // ε_1 = γ((1 − σ)α + 1 − α) = 3/8, ε_2 = 9/64; car_2 = α_c = 1/2;
    // α_c adds (1 − ε_2) α / (1 − ε_2 car_2) = (55/128) / (119/128) = 55/119.
    const { value } = fit("DBN", [A], { mode: "pyclick", iterations: 1 });
    expect(value("attr", "c")).toBeCloseTo((1 + 55 / 119) / 3, 12);
    expect(value("attr", "a")).toBeCloseTo(1 / 3, 12);
    expect(value("sat", "b")).toBeCloseTo((1 + 4 / 7) / 3, 12);
  });

  it("CCM textbook on A: satisfaction at the last click shares α", () => {
    // After the click on b: E_c with τ2(1 − α) + τ3 α = 1/2; Z = 1 − 1/2 + 1/2 · 1/2 = 3/4; P(E_c = 1 | ·) = 1/3.
    // (S_b, E_c) joint / Z: (1,1) 1/8, (1,0) 1/4, (0,1) 1/8, (0,0) 1/4, each over 3/4.
    const { value, global } = fit("CCM", [A], { iterations: 1 });
    close(
      ["a", "b", "c"].map((d) => value("attr", d)),
      [1 / 3, (1 + 1 + 1 / 2) / 4, (1 + (2 / 3) * (1 / 2)) / 3],
    );
    close(global("cont_noclick"), [2 / 3]);
    close(global("cont_click_nonrel"), [(1 + 1 / 6) / (2 + 1 / 2)]);
    close(global("cont_click_rel"), [(1 + 1 / 6) / (2 + 1 / 2)]);
  });
});

describe("measures, worked by hand", () => {
  it("log-likelihood and perplexity of DCM on its own session", () => {
    const { model, log } = fit("DCM", [A], { mode: "pyclick" });
    expect(logLikelihood(model as ClickModel, log)).toBeCloseTo(
      (2 * Math.log(2 / 3) + Math.log(5 / 6)) / 3,
      12,
    );
    const pp = perplexity(model, log);
    // q = 1 − 1/3, 5/9, 1 − 25/108; PP_r = 1/q with one session.
    close(pp.byRank, [3 / 2, 9 / 5, 108 / 83]);
    expect(pp.overall).toBeCloseTo((3 / 2 + 9 / 5 + 108 / 83) / 3, 12);
  });

  it("AUC counts a tie as one half", () => {
    // Pairs (positive, negative): 0.8 vs 0.8 = ½, 0.8 vs 0.1 = 1, 0.3 vs 0.8 = 0, 0.3 vs 0.1 = 1 → 2.5 / 4.
    expect(auc([1, 0, 1, 0], [0.8, 0.8, 0.3, 0.1])).toBe(0.625);
    expect(auc([1, 1], [0.2, 0.3])).toBeNull();
  });
});
