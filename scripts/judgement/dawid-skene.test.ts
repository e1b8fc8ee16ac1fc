import fs from "node:fs";
import path from "node:path";
import { createRng } from "../lib/random";
import {
  dawidSkene,
  dawidSkeneEm,
  dawidSkeneLabels,
  DS_MAX_ITERATIONS,
  DS_TOLERANCE,
  type DsStart,
  type EmState,
  type Observations,
} from "./dawid-skene";

const F = path.resolve(__dirname, "../../test/fixtures/dawid-skene-1979");

// Dawid and Skene (1979), Table 1: 45 patients, 5 observers, 4 classes; observer 1 saw each patient
// three times. Rows: patient; per observer the classes they gave.
const TABLE_1 = JSON.parse(fs.readFileSync(path.join(F, "table1.json"), "utf8")) as number[][][];

describe("Dawid–Skene", () => {
  it("reaches the hand-worked fixed point of a 2-rater, 3-item case within 1e-6", () => {
    // Items A: (1, 1), B: (2, 2), C: (1, 2) from raters r1 and r2; grades 1–2.
    // Start (majority, ties split): T_A = (1, 0), T_B = (0, 1), T_C = (½, ½).
    // M-step: p = ((1 + ½)/3, (1 + ½)/3) = (½, ½).
    //   r1 gave 1 to A and C, 2 to B: row 1 = (1·1 + ½·1, 0)/1.5 = (1, 0); row 2 = (½, 1)/1.5 = (⅓, ⅔).
    //   r2 gave 1 to A, 2 to B and C: row 1 = (1, ½)/1.5 = (⅔, ⅓); row 2 = (0, 1 + ½)/1.5 = (0, 1).
    // E-step: A: (½·1·⅔, ½·⅓·0) = (⅓, 0) → (1, 0); B: (½·0·⅓, ½·⅔·1) = (0, ⅓) → (0, 1);
    //   C: (½·1·⅓, ½·⅓·1) = (⅙, ⅙) → (½, ½): the start again, so the second iteration gains 0 and stops.
    // log-likelihood = log ⅓ + log ⅓ + log(⅙ + ⅙) = 3 log ⅓; C's tie goes to the lower grade.
    const result = dawidSkene(
      [
        { item: "A", rater: "r1", grade: 1 },
        { item: "A", rater: "r2", grade: 1 },
        { item: "B", rater: "r1", grade: 2 },
        { item: "B", rater: "r2", grade: 2 },
        { item: "C", rater: "r1", grade: 1 },
        { item: "C", rater: "r2", grade: 2 },
      ],
      { classes: 2 },
    );
    expect(result.iterations).toBe(2);
    expect(result.logLikelihood).toBeCloseTo(3 * Math.log(1 / 3), 6);
    expect(result.priors[0]).toBeCloseTo(0.5, 6);
    const close = (actual: number[][], expected: number[][]) =>
      actual.flat().forEach((v, i) => expect(v).toBeCloseTo(expected.flat()[i], 6));
    close(result.confusion.get("r1")!, [
      [1, 0],
      [1 / 3, 2 / 3],
    ]);
    close(result.confusion.get("r2")!, [
      [2 / 3, 1 / 3],
      [0, 1],
    ]);
    close(
      [result.posteriors.get("A")!, result.posteriors.get("B")!, result.posteriors.get("C")!],
      [
        [1, 0],
        [0, 1],
        [0.5, 0.5],
      ],
    );
    expect([...result.labels]).toEqual([
      ["A", 1],
      ["B", 2],
      ["C", 1],
    ]);
  });

  it("gives Dawid and Skene's 1979 estimates for their Table 1 (to the paper's two decimals)", () => {
    const ratings = TABLE_1.flatMap((observers, p) =>
      observers.flatMap((grades, o) =>
        grades.map((grade) => ({ item: `patient-${p + 1}`, rater: `observer-${o + 1}`, grade })),
      ),
    );
    // The paper starts from each patient's shares of the votes; DESIGN.md's majority start ends in
    // another local maximum here (lower likelihood: class 4's prior 0.02), which the last lines pin.
    const result = dawidSkene(ratings, { classes: 4, start: "votes" });
    // Paper, Table 2 (class marginals) and Table 3 (observer 1's and 2's error rates; rows: true class).
    [0.4, 0.42, 0.11, 0.07].forEach((p, k) => expect(Math.abs(result.priors[k] - p)).toBeLessThan(0.01));
    const observer1 = [
      [0.89, 0.11, 0, 0],
      [0.07, 0.88, 0.05, 0],
      [0, 0.34, 0.66, 0],
      [0, 0, 0.56, 0.44],
    ];
    const observer2 = [
      [0.83, 0.17, 0, 0],
      [0.05, 0.63, 0.31, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    result.confusion
      .get("observer-1")!
      .flat()
      .forEach((v, i) => expect(Math.abs(v - observer1.flat()[i])).toBeLessThan(0.01));
    result.confusion
      .get("observer-2")!
      .flat()
      .forEach((v, i) => expect(Math.abs(v - observer2.flat()[i])).toBeLessThan(0.01));
    const observer3 = [
      [1, 0, 0, 0],
      [0.11, 0.79, 0.11, 0],
      [0, 0.4, 0.2, 0.4],
      [0, 0, 0.67, 0.33],
    ];
    result.confusion
      .get("observer-3")!
      .flat()
      .forEach((v, i) => expect(Math.abs(v - observer3.flat()[i])).toBeLessThan(0.01));
    const majorityStart = dawidSkene(ratings, { classes: 4 });
    expect(majorityStart.priors[3]).toBeCloseTo(0.0222, 4);
    expect(majorityStart.logLikelihood).toBeLessThan(result.logLikelihood);
  });

  it.each(["votes", "majority"] as DsStart[])(
    "matches a separate numpy EM on Table 1 from the %s start within 1e-6",
    (start) => {
      const table = TABLE_1;
      const want = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"))[start];
      const ratings = table.flatMap((observers, p) =>
        observers.flatMap((grades, o) =>
          grades.map((grade) => ({ item: `patient-${p + 1}`, rater: `observer-${o + 1}`, grade })),
        ),
      );
      const result = dawidSkene(ratings, { classes: 4, start });
      expect(result.iterations).toBe(want.iterations);
      expect(result.logLikelihood).toBeCloseTo(want.logLikelihood, 6);
      const within = (got: number[], expected: number[]) =>
        got.forEach((v, i) => expect(Math.abs(v - expected[i])).toBeLessThan(1e-6));
      within(result.priors, want.priors);
      table.forEach((_, p) => within(result.posteriors.get(`patient-${p + 1}`)!, want.posteriors[p]));
      for (let o = 0; o < 5; o++)
        within(result.confusion.get(`observer-${o + 1}`)!.flat(), want.confusion[o].flat());
    },
  );

  it("rejects a grade outside the classes", () => {
    expect(() => dawidSkene([{ item: "A", rater: "r", grade: 5 }], { classes: 4 })).toThrow(
      "is not a whole number from 1 to 4",
    );
  });
});

describe("warm-started EM (learning curves start each draw from the previous draw's rater parameters)", () => {
  it("started from a fit's own priors and confusion matrices, it stays at that fit's labels", () => {
    const obs: Observations = {
      item: Int32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
      rater: Int32Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]),
      cls: Int32Array.from([0, 0, 1, 1, 1, 1, 2, 2, 1, 0, 2, 2]),
      items: 4,
      raters: 3,
      classes: 3,
    };
    const cold = dawidSkeneEm(obs);
    const warm = dawidSkeneEm(obs, "majority", undefined, undefined, cold);
    expect(Array.from(dawidSkeneLabels(warm.posteriors, 3))).toEqual(
      Array.from(dawidSkeneLabels(cold.posteriors, 3)),
    );
    expect(warm.logLikelihood).toBeCloseTo(cold.logLikelihood, 5);
    expect(warm.iterations).toBeLessThanOrEqual(cold.iterations);
  });
});

/**
 * Dawid–Skene's EM as the file's comment states it, in separate passes with nothing shared: the
 * reference for the four-grade loop, which groups items, sums per cell and decides the gain from an
 * estimate, and must still add the same numbers in the same order (every figure bit for bit).
 */
function plainEm(obs: Observations & { itemStart: Int32Array }, T: Float64Array): EmState {
  const { items: I, raters: J, itemStart } = obs;
  const priors = new Float64Array(4);
  const confusion = new Float64Array(J * 16);
  let logLikelihood = -Infinity;
  let iterations = 0;
  while (iterations < DS_MAX_ITERATIONS) {
    iterations++;
    priors.fill(0);
    for (let i = 0; i < I; i++) for (let k = 0; k < 4; k++) priors[k] += T[i * 4 + k];
    for (let k = 0; k < 4; k++) priors[k] /= I;
    confusion.fill(0);
    for (let o = 0; o < obs.item.length; o++)
      for (let k = 0; k < 4; k++) confusion[obs.rater[o] * 16 + k * 4 + obs.cls[o]] += T[obs.item[o] * 4 + k];
    for (let r = 0; r < J * 16; r += 4) {
      const row = confusion[r] + confusion[r + 1] + confusion[r + 2] + confusion[r + 3];
      for (let l = 0; l < 4; l++) confusion[r + l] = row > 0 ? confusion[r + l] / row : 1 / 4;
    }
    const ll = plainEStep(I, itemStart, obs, priors, confusion, T);
    const gain = ll - logLikelihood;
    logLikelihood = ll;
    if (gain < DS_TOLERANCE) break;
  }
  return { posteriors: T, priors, confusion, logLikelihood, iterations };
}

function plainEStep(
  I: number,
  itemStart: Int32Array,
  obs: Observations,
  priors: Float64Array,
  confusion: Float64Array,
  T: Float64Array,
): number {
  let ll = 0;
  for (let i = 0; i < I; i++) {
    const a = Array.from(priors, Math.log);
    for (let o = itemStart[i]; o < itemStart[i + 1]; o++)
      for (let k = 0; k < 4; k++) a[k] += Math.log(confusion[obs.rater[o] * 16 + k * 4 + obs.cls[o]]);
    const max = Math.max(...a);
    const e = a.map((x) => Math.exp(x - max));
    const sum = e[0] + e[1] + e[2] + e[3];
    for (let k = 0; k < 4; k++) T[i * 4 + k] = e[k] / sum;
    ll += max + Math.log(sum);
  }
  return ll;
}

/** I items of four grades from J raters, `per` grades each (raters drawn without replacement), item by item. */
function panel(seed: string, I: number, J: number, per: number) {
  const rng = createRng(seed);
  const item: number[] = [];
  const rater: number[] = [];
  const cls: number[] = [];
  const itemStart = new Int32Array(I + 1);
  for (let i = 0; i < I; i++) {
    const truth = rng.int(4);
    const raters = Array.from({ length: J }, (_, j) => j).sort(() => rng.next() - 0.5);
    for (const j of raters.slice(0, per)) {
      item.push(i);
      rater.push(j);
      // Each rater right with probability 0.5 + j / (2J), else a neighbouring grade or any.
      const right = rng.next() < 0.5 + j / (2 * J);
      cls.push(
        right
          ? truth
          : rng.next() < 0.7
            ? Math.min(3, Math.max(0, truth + (rng.next() < 0.5 ? -1 : 1)))
            : rng.int(4),
      );
    }
    itemStart[i + 1] = item.length;
  }
  const obs = { item: Int32Array.from(item), rater: Int32Array.from(rater), cls: Int32Array.from(cls) };
  return { ...obs, items: I, raters: J, classes: 4, itemStart };
}

/** The majority-vote start (ties split evenly) of dawidSkeneEm. */
function majorityStart(obs: Observations): Float64Array {
  const T = new Float64Array(obs.items * 4);
  const votes = new Float64Array(obs.items * 4);
  for (let o = 0; o < obs.item.length; o++) votes[obs.item[o] * 4 + obs.cls[o]]++;
  for (let i = 0; i < obs.items; i++) {
    const v = votes.subarray(i * 4, i * 4 + 4);
    const best = Math.max(...v);
    const tied = v.filter((x) => x === best).length;
    for (let k = 0; k < 4; k++) T[i * 4 + k] = v[k] === best ? 1 / tied : 0;
  }
  return T;
}

describe("Dawid–Skene's four-grade loop (learning curves: observations item by item)", () => {
  const same = (got: EmState, want: EmState) => {
    expect(got.iterations).toBe(want.iterations);
    expect(Object.is(got.logLikelihood, want.logLikelihood)).toBe(true);
    expect(Array.from(got.posteriors)).toEqual(Array.from(want.posteriors));
    expect(Array.from(got.priors)).toEqual(Array.from(want.priors));
    expect(Array.from(got.confusion)).toEqual(Array.from(want.confusion));
  };

  it.each([
    ["two grades per item, items that share their grades computed once", 2],
    ["three grades per item", 3],
    ["seven grades per item", 7],
  ])("gives the plain EM's figures bit for bit: %s", (_, per) => {
    const obs = panel(`ds4-${per}`, 400, 9, per);
    const got = dawidSkeneEm(obs);
    same(got, plainEm(obs, majorityStart(obs)));
    // Warm-started from another panel's fit, as the learning curve's next draw is.
    const next = panel(`ds4-${per}-next`, 400, 9, per);
    const warm = { priors: got.priors, confusion: got.confusion };
    const T = new Float64Array(400 * 4);
    plainEStep(400, next.itemStart, next, warm.priors, warm.confusion, T);
    // (An item the warm parameters leave without a posterior sends EM back to the cold start.)
    const start = T.some(Number.isNaN) ? majorityStart(next) : T;
    same(dawidSkeneEm(next, "majority", undefined, undefined, warm), plainEm(next, start));
  });

  it("starts cold when the warm parameters leave an item without a posterior", () => {
    const obs = panel("ds4-cold", 200, 5, 3);
    const fit = dawidSkeneEm(obs);
    // Rater 0 never gives grade 1 under these parameters, whatever the true grade: an item where it
    // did has probability 0 in every class.
    const confusion = Float64Array.from(fit.confusion);
    for (let k = 0; k < 4; k++) {
      confusion[k * 4] = 0;
      confusion[k * 4 + 1] = 1 - confusion[k * 4 + 2] - confusion[k * 4 + 3];
    }
    expect(Array.from(obs.cls).some((c, o) => c === 0 && obs.rater[o] === 0)).toBe(true);
    same(dawidSkeneEm(obs, "majority", undefined, undefined, { priors: fit.priors, confusion }), fit);
  });
});
