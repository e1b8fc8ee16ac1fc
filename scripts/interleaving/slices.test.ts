import { interleavingResult } from "./results";
import { interleavingSlices, interleavingSlicesOfPage, type ProposalCredit } from "./slices";

/**
 * A small hand-computed case. Slice "ml" (conveners u1–u3), by click credit: B wins 3 sessions, A wins 1,
 * one tie, one session without preference → win rate (3 + ½)/5 = 0.7, sign test on 3 of 4 wins:
 * P(X ≥ 3) + P(X ≤ 1) = (4 + 1 + 4 + 1)/16 = 0.625; by adoption credit B wins its only decided session:
 * p = P(X = 1) + P(X = 0) = 1. Slice "nlp" (u4, u5): B wins all 5 by click, p = 2 · (½)⁵ = 0.0625; no
 * adoption, so no p. Slice "rare" has one convener: too few at a minimum of 2.
 * Three p-values in the family. Holm: 0.0625 · 3 = 0.1875, max(0.1875, 0.625 · 2 → 1) = 1, 1.
 * Benjamini–Hochberg: 3 · 0.0625 / 1 = 0.1875, 3 · 0.625 / 2 = 0.9375, 1.
 */
const s = (unit: string, session: string, proposal: string, click: Record<string, number>, adopt = {}) => ({
  unit,
  session,
  proposal,
  click,
  adopt,
});
const B_WINS = { A: 0, B: 2 };
const sessions: ProposalCredit[] = [
  s("u1", "1", "p-ml", B_WINS, { B: 1 }),
  s("u1", "2", "p-ml", B_WINS),
  s("u2", "3", "p-ml", B_WINS),
  s("u2", "4", "p-ml", { A: 1, B: 0 }),
  s("u3", "5", "p-ml", { A: 1, B: 1 }),
  s("u3", "6", "p-ml", {}),
  ...["7", "8"].map((id) => s("u4", id, "p-nlp", B_WINS)),
  ...["9", "10", "11"].map((id) => s("u5", id, "p-nlp", B_WINS)),
  s("u6", "12", "p-rare", B_WINS),
];
const options = { control: "A", challenger: "B", B: 200, seed: "slices", minUnits: 2 };
const bySlice = (name: string) => sessions.filter((x) => x.proposal === `p-${name}`);
const slices = new Map(["ml", "nlp", "rare"].map((name) => [name, bySlice(name)]));

it("gives each slice's win rate, sign-test p and sessions with a preference, computed by hand", () => {
  const { holm } = interleavingSlices(slices, options);
  const [ml, nlp, rare] = holm.slices;
  if (ml.tooFew || nlp.tooFew) throw new Error("ml and nlp have enough conveners");
  const [mlClick, mlAdopt] = ml.credits;
  expect([ml.sessions, ml.conveners]).toEqual([6, 3]);
  expect(mlClick.result.wins).toEqual({ A: 1, B: 3 });
  expect(mlClick.result.ties).toBe(1);
  expect(mlClick.withPreference).toBe(5);
  expect(mlClick.result.winRate).toBeCloseTo(0.7, 12);
  expect(mlClick.result.pValue).toBeCloseTo(0.625, 12);
  expect(mlAdopt.withPreference).toBe(1);
  expect(mlAdopt.result.pValue).toBeCloseTo(1, 12);
  expect(nlp.credits[0].result.winRate).toBe(1);
  expect(nlp.credits[0].result.pValue).toBeCloseTo(0.0625, 12);
  expect(nlp.credits[1].result.pValue).toBeNull();
  expect(nlp.credits[1].adjustedP).toBeNull();
  expect(rare).toMatchObject({ slice: "rare", tooFew: true, conveners: 1, sessions: 1 });
  expect(rare.tooFew && rare.reason).toBe("too few conveners: 1, at least 2 needed");
  // The interval is the whole experiment's computation on the slice's sessions, with the same B and seed.
  expect(mlClick.result.ci).toEqual(interleavingResult(bySlice("ml"), { ...options, credit: "click" }).ci);
});

it("adjusts the p of every slice and credit together, Holm by default and Benjamini–Hochberg", () => {
  const { holm, bh } = interleavingSlices(slices, options);
  const adjusted = (t: typeof holm) =>
    t.slices.flatMap((x) => (x.tooFew ? [] : x.credits.map((c) => c.adjustedP)));
  expect(holm.comparisons).toBe(3);
  expect(bh.comparisons).toBe(3);
  const [h, b] = [adjusted(holm), adjusted(bh)];
  expect([h[0], h[1], h[2], h[3]]).toEqual([1, 1, expect.closeTo(0.1875, 12), null]);
  expect([b[0], b[1], b[2], b[3]]).toEqual([expect.closeTo(0.9375, 12), 1, expect.closeTo(0.1875, 12), null]);
});

it("needs the A/B slices' ten conveners by default", () => {
  const { holm } = interleavingSlices(slices, { ...options, minUnits: undefined });
  expect(holm.slices.every((x) => x.tooFew)).toBe(true);
  expect(holm.comparisons).toBe(0);
});

it("slices by subject and by each convener attribute, missing values apart", () => {
  const page = interleavingSlicesOfPage({
    ...options,
    sessions,
    subjectOf: new Map([
      ["p-ml", "ml"],
      ["p-nlp", "nlp"],
    ]),
    attributes: new Map([["seniority", new Map([["u1", "senior"]])]]),
  });
  expect(page.subject.holm.slices.map((x) => x.slice)).toEqual(["(unknown)", "ml", "nlp"]);
  const [noValue, senior] = page.byConvener[0].holm.slices;
  expect(page.byConvener[0].attribute).toBe("seniority");
  expect([noValue.slice, noValue.sessions, noValue.conveners]).toEqual(["(no value)", 10, 5]);
  expect(senior).toMatchObject({ slice: "senior", sessions: 2, tooFew: true });
});
