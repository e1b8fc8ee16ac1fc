import { adjustPValues } from "../stats/multiple-testing";
import { multileavingResult } from "./multileave-results";
import { multileavingSlices, multileavingSlicesOfPage } from "./multileave-slices";
import type { ProposalCredit } from "./slices";

/**
 * A small hand-computed case with three systems A, B, C (A the control), by click credit.
 * Slice "x" (u1, u2): s1 {A:1} → A>B, A>C; s2 {A:1, B:1} → A=B (a tie), A>C, B>C; s3 {A:1, B:2} → B>A,
 * A>C, B>C; s4 {} → no preference. A over B: 1 win, 1 loss, 1 tie, share ½, p = 1; A over C: 3–0,
 * share 1, p = 2 · (½)³ = 0.25; B over C: 2–0, p = 2 · (½)² = 0.5.
 * Slice "y" (u3, u4): C alone credited in 4 sessions: C over A and C over B 4–0, p = 2 · (½)⁴ = 0.125;
 * A against B undecided, no p. No adoption anywhere, so no adoption p. Slice "z" has one convener: too few
 * at a minimum of 2.
 * Five comparisons (an unordered pair is one: its reverse has the same sign test), sorted
 * 0.125, 0.125, 0.25, 0.5, 1.
 * Holm: 5 · 0.125 = 0.625, max(0.625, 4 · 0.125) = 0.625, 3 · 0.25 = 0.75, 2 · 0.5 = 1, 1.
 * Benjamini–Hochberg: from the top 1, 5 · 0.5/4 = 0.625, 5 · 0.25/3 = 0.41667, 5 · 0.125/2 = 0.3125 (twice).
 */
const s = (unit: string, session: string, proposal: string, click: Record<string, number>) => ({
  unit,
  session,
  proposal,
  click,
  adopt: {},
});
const sessions: ProposalCredit[] = [
  s("u1", "1", "p-x", { A: 1 }),
  s("u1", "2", "p-x", { A: 1, B: 1 }),
  s("u2", "3", "p-x", { A: 1, B: 2 }),
  s("u2", "4", "p-x", {}),
  ...["5", "6"].map((id) => s("u3", id, "p-y", { C: 1 })),
  ...["7", "8"].map((id) => s("u4", id, "p-y", { C: 1 })),
  s("u5", "9", "p-z", { B: 1 }),
];
const options = { systems: ["A", "B", "C"], B: 200, seed: "mslices", minUnits: 2 };
const bySlice = (name: string) => sessions.filter((x) => x.proposal === `p-${name}`);
const slices = new Map(["x", "y", "z"].map((name) => [name, bySlice(name)]));

/** A credit's pairs as "system>other" → [wins, losses, ties, share, p, adjusted p]. */
function pairsOf(credit: { result: ReturnType<typeof multileavingResult>; adjustedP: (number | null)[] }) {
  return Object.fromEntries(
    credit.result.pairs.map((p, i) => [
      `${p.system}>${p.other}`,
      [p.wins, p.losses, p.ties, p.share, p.pValue, credit.adjustedP[i]],
    ]),
  );
}

it("gives each slice's preference matrix, sign-test p and Holm-adjusted p, computed by hand", () => {
  const { holm } = multileavingSlices(slices, options);
  const [x, y, z] = holm.slices;
  if (x.tooFew || y.tooFew) throw new Error("x and y have enough conveners");
  expect([x.sessions, x.conveners, y.sessions, y.conveners]).toEqual([4, 2, 4, 2]);
  const close = (v: number) => expect.closeTo(v, 12);
  expect(pairsOf(x.credits[0])).toEqual({
    "A>B": [1, 1, 1, 0.5, 1, 1],
    "A>C": [3, 0, 0, 1, close(0.25), close(0.75)],
    "B>A": [1, 1, 1, 0.5, 1, 1],
    "B>C": [2, 0, 0, 1, close(0.5), 1],
    "C>A": [0, 3, 0, 0, close(0.25), close(0.75)],
    "C>B": [0, 2, 0, 0, close(0.5), 1],
  });
  expect(pairsOf(y.credits[0])).toEqual({
    "A>B": [0, 0, 0, null, null, null],
    "A>C": [0, 4, 0, 0, close(0.125), close(0.625)],
    "B>A": [0, 0, 0, null, null, null],
    "B>C": [0, 4, 0, 0, close(0.125), close(0.625)],
    "C>A": [4, 0, 0, 1, close(0.125), close(0.625)],
    "C>B": [4, 0, 0, 1, close(0.125), close(0.625)],
  });
  expect(x.credits[1].credit).toBe("adopt");
  expect(x.credits[1].adjustedP.every((p) => p === null)).toBe(true);
  expect(z).toMatchObject({ slice: "z", tooFew: true, conveners: 1, sessions: 1 });
  expect(z.tooFew && z.reason).toBe("too few conveners: 1, at least 2 needed");
  expect(holm.comparisons).toBe(5);
  // A slice is read as the whole experiment is: its matrix, intervals and ranking.
  expect(x.credits[0].result).toEqual(multileavingResult(bySlice("x"), { ...options, credit: "click" }));
  expect(y.credits[0].result.ranking.map((r) => r.system)).toEqual(["C", "A", "B"]);
});

it("adjusts by Benjamini–Hochberg on request, as the Holm/BH helper does on the same five p-values", () => {
  const { holm, bh } = multileavingSlices(slices, options);
  expect(bh.correction).toBe("bh");
  expect(bh.comparisons).toBe(5);
  const [x, y] = bh.slices;
  if (x.tooFew || y.tooFew) throw new Error("x and y have enough conveners");
  expect(pairsOf(x.credits[0])["A>C"][5]).toBeCloseTo(0.25 * (5 / 3), 12);
  expect(pairsOf(x.credits[0])["B>C"][5]).toBeCloseTo(0.625, 12);
  expect(pairsOf(x.credits[0])["A>B"][5]).toBe(1);
  expect(pairsOf(y.credits[0])["C>A"][5]).toBeCloseTo(0.3125, 12);
  // The same family through the helper directly (x's A–B, A–C, B–C, then y's A–C, B–C).
  const family = [1, 0.25, 0.5, 0.125, 0.125];
  for (const [table, method] of [
    [holm, "holm"],
    [bh, "bh"],
  ] as const) {
    const [tx, ty] = table.slices;
    if (tx.tooFew || ty.tooFew) throw new Error("x and y have enough conveners");
    const got = [
      ...["A>B", "A>C", "B>C"].map((k) => pairsOf(tx.credits[0])[k][5]),
      ...["A>C", "B>C"].map((k) => pairsOf(ty.credits[0])[k][5]),
    ];
    adjustPValues(family, method).forEach((p, i) => expect(got[i]).toBeCloseTo(p!, 12));
  }
});

it("needs the A/B slices' ten conveners by default", () => {
  const { holm } = multileavingSlices(slices, { ...options, minUnits: undefined });
  expect(holm.slices.every((x) => x.tooFew)).toBe(true);
  expect(holm.comparisons).toBe(0);
});

it("slices by subject and by each convener attribute, missing values apart", () => {
  const page = multileavingSlicesOfPage({
    ...options,
    sessions,
    subjectOf: new Map([
      ["p-x", "ml"],
      ["p-y", "nlp"],
    ]),
    attributes: new Map([["seniority", new Map([["u1", "senior"]])]]),
  });
  expect(page.subject.attribute).toBe("subject");
  expect(page.subject.holm.slices.map((x) => x.slice)).toEqual(["(unknown)", "ml", "nlp"]);
  const [noValue, senior] = page.byConvener[0].holm.slices;
  expect(page.byConvener[0].attribute).toBe("seniority");
  expect([noValue.slice, noValue.sessions, noValue.conveners]).toEqual(["(no value)", 7, 4]);
  expect(senior).toMatchObject({ slice: "senior", sessions: 2, tooFew: true });
});
