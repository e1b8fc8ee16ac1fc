import { adaptiveSimilarity, neighboursOf, textEstimates, type TextMethod } from "./text-estimates";
import { textLearningCurves } from "./text-curves";

// a and b read the same (cosine 1), c like neither (cosine 0).
const texts = [
  { item: "p:a", proposal: "p", text: "graph neural networks" },
  { item: "p:b", proposal: "p", text: "Graph neural networks." },
  { item: "p:c", proposal: "p", text: "medieval poetry" },
];
const items = ["p:a", "p:b", "p:c"];
const neighbours = neighboursOf(items, texts);
const estimate = (method: TextMethod, votes: number[][], target = 3) =>
  textEstimates(method, votes, neighbours, target);

describe("text-aware estimates", () => {
  it("orders each item's neighbours by similarity", () => {
    expect(Array.from(neighbours[0].index)).toEqual([1, 2]);
    expect(neighbours[0].similarity[0]).toBeCloseTo(1, 12);
    expect(Array.from(neighbours[2].similarity)).toEqual([0, 0]);
  });

  it("s(n) = 1 − 1/(n − 1) for n > 1, else 0", () => {
    expect([0, 1, 2, 3, 5].map(adaptiveSimilarity)).toEqual([0, 0, 0, 0.5, 0.75]);
  });

  it("nearest neighbour: borrows an estimate only from a similar enough item whose grades vary less", () => {
    // a (one vote: varies the most) takes b's 4 (variance 0); b keeps its own; c has no neighbour at
    // s = 0.5 and its own votes [1, 1, 2] give 1.
    const votes = [[3], [4, 4], [1, 1, 2]];
    expect(estimate({ estimator: "nn", similarity: 0.5 }, votes)).toEqual([4, 4, 1]);
    // Two one-vote items never borrow from each other.
    expect(estimate({ estimator: "nn", similarity: 0 }, [[3], [4], []])).toEqual([3, 4, null]);
    // Above the item's own similarity to anything: nobody borrows.
    expect(estimate({ estimator: "nn", similarity: 1.5 }, votes)).toEqual([3, 4, 1]);
  });

  it("majority with the nearest neighbour joins both items' votes", () => {
    // a: [3] + b's [4, 4] → 4; b: [4, 4] + [3] → 4; c at s = 0 joins a's (nearest by order at a tie of
    // similarities 0) [3]: [1, 1, 2, 3] → 1; a tie stays undecided: [2] + [3] at a's side.
    expect(estimate({ estimator: "majority-nn", similarity: 0 }, [[3], [4, 4], [1, 1, 2]])).toEqual([
      4, 4, 1,
    ]);
    expect(estimate({ estimator: "majority-nn", similarity: 0.5 }, [[2], [3], [1]])).toEqual([null, null, 1]);
  });

  it("join until n: neighbours' votes, most similar first, until the item has the target", () => {
    // target 4: a [3] + b [4, 4] = 3 votes, still short: c is 0 similar, below s = 0.5, so a stops at
    // [3, 4, 4] → 4. With s = 0 it goes on to c: [3, 4, 4, 1, 2, 2] → a tie of 4 and 2 → undecided.
    const votes = [[3], [4, 4], [1, 2, 2]];
    expect(estimate({ estimator: "join-until-n", similarity: 0.5 }, votes, 4)).toEqual([4, 4, 2]);
    expect(estimate({ estimator: "join-until-n", similarity: 0 }, votes, 4)[0]).toBeNull();
    // Adaptive: a (1 vote) and b (2 votes) have s = 0 and join all the others: undecided both (b:
    // [4, 4, 3, 1, 2, 2]); c (3 votes, s = 1/2) finds no neighbour that similar and keeps its 2.
    expect(estimate({ estimator: "join-until-n", similarity: "adaptive" }, votes, 4)).toEqual([
      null,
      null,
      2,
    ]);
  });
});

describe("text-aware learning curves against gold", () => {
  // Gold: a is 4, c is 1. b's three 4s are what a can borrow.
  const ratings = [
    { item: "p:a", rater: "x", grade: 3 },
    { item: "p:a", rater: "y", grade: 4 },
    ...[4, 4, 4].map((grade, k) => ({ item: "p:b", rater: `r${k}`, grade })),
    ...[1, 1, 2].map((grade, k) => ({ item: "p:c", rater: `r${k}`, grade })),
  ];
  const truth = new Map([
    ["p:a", 4],
    ["p:c", 1],
  ]);

  it("averages seeded vote orders, worked by hand", () => {
    // n = 1: a right half the time, c two times in three, for both methods (one-vote items borrow
    //   nothing): 7/12. n = 2: a's [3, 4] ties (majority wrong) but varies more than b's [4, 4], so
    //   nn takes 4 (right); c right when both its 1s are drawn (1/3): majority 1/6, nn 2/3.
    //   n = 3: c is always 1: majority 1/2, nn 1.
    const { curves, grades } = textLearningCurves(ratings, texts, truth, {
      methods: [{ estimator: "nn", similarity: 0.5 }],
      draws: 3000,
      seed: 7,
    });
    expect(grades).toBe(8);
    const [majority, nn] = curves;
    expect(nn.method).toBe("nn s=0.5");
    expect(majority.points.map((p) => p.accuracy)).toEqual([
      expect.closeTo(7 / 12, 1),
      expect.closeTo(1 / 6, 1),
      0.5,
    ]);
    expect(nn.points.map((p) => p.accuracy)).toEqual([
      expect.closeTo(7 / 12, 1),
      expect.closeTo(2 / 3, 1),
      1,
    ]);
    expect(nn.points[1].difference).toBeCloseTo(0.5, 12); // c's draws are the same for both methods
    // Paired over the 2 gold items, d = (1, 0): t = 1, df = 1, p = 1/2; Holm across the 3 points gives 1.
    expect(nn.points[1].pValue).toBeCloseTo(0.5, 12);
    // Its 95% t interval: 0.5 ± t(0.975, 1) · sd/√2 = 0.5 ± 12.7062047 · 0.5 (scipy's t.ppf).
    expect(nn.points[1].differenceCi!.lower).toBeCloseTo(0.5 - 12.706204736174698 * 0.5, 9);
    expect(nn.points[1].differenceCi!.upper).toBeCloseTo(0.5 + 12.706204736174698 * 0.5, 9);
    expect(majority.points[0].differenceCi).toBeNull();
    expect(nn.points.map((p) => p.pHolm)).toEqual([1, 1, 1]);
    expect(nn.points[2].ci).toEqual({ lower: 1, upper: 1 });
    expect(majority.points[0]).toMatchObject({ difference: null, pValue: null });
    // Majority's all-vote accuracy (1/2) is reached with one vote per item: 3 grades used, 5 saved.
    expect(majority.allVotes).toBe(0.5);
    expect(nn.allVotes).toBe(1);
    expect(nn.saving).toEqual({ n: 1, gradesUsed: 3, gradesSaved: 5 });
  });

  it("repeats itself for a seed", () => {
    const run = () =>
      textLearningCurves(ratings, texts, truth, {
        methods: [{ estimator: "join-until-n", similarity: "adaptive" }],
        draws: 50,
        seed: "s",
        coinTies: true,
      });
    expect(run()).toEqual(run());
  });
});
