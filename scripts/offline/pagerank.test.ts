import { coCommitteeGraph, pagerank, pagerankWithout } from "./pagerank";

describe("PageRank over the co-committee graph", () => {
  it("matches the hand-solved star with an isolated (dangling) node", () => {
    // Committees {a, c} and {b, c}; d never sat with anyone. With d = 0.85 and n = 4 the fixed point is
    // e = 0.0375 + 0.85 e/4 → e = 1/21; leaves l = 9.5 / (21 · 1.85); centre m = 20/21 − 2l.
    const x = pagerank(coCommitteeGraph([[0, 2], [1, 2], [3]], 4));
    const l = 9.5 / (21 * 1.85);
    expect(x[0]).toBeCloseTo(l, 10);
    expect(x[1]).toBeCloseTo(l, 10);
    expect(x[2]).toBeCloseTo(20 / 21 - 2 * l, 10);
    expect(x[3]).toBeCloseTo(1 / 21, 10);
  });

  it("matches the exact solution of (I − M) x = (1 − d)/n on a weighted graph (networkx semantics)", () => {
    // Committees {a,b,c}, {c,d}, {a,b}: a–b weight 2; e is dangling and spreads its rank uniformly.
    // Reference: numpy.linalg.solve of the same linear system (networkx.pagerank's fixed point).
    const x = pagerank(
      coCommitteeGraph(
        [
          [0, 1, 2],
          [2, 3],
          [0, 1],
        ],
        5,
      ),
    );
    const expected = [0.27542133, 0.27542133, 0.29366352, 0.11934924, 0.03614458];
    expected.forEach((v, i) => expect(x[i]).toBeCloseTo(v, 7));
    expect(x.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("leave-one-out is PageRank of the graph built without that committee, and leaves the graph as it was", () => {
    const committees = [
      [0, 1, 2],
      [2, 3],
      [0, 1],
    ];
    const graph = coCommitteeGraph(committees, 5);
    const before = Float64Array.from(graph.weights);
    const without = pagerankWithout(graph, committees[0]);
    const rebuilt = pagerank(coCommitteeGraph(committees.slice(1), 5));
    rebuilt.forEach((v, i) => expect(without[i]).toBeCloseTo(v, 10));
    expect(graph.weights).toEqual(before);
    // Without {a,b,c}, c keeps only its link to d: c and d are now symmetric.
    expect(without[2]).toBeCloseTo(without[3], 10);
  });
});
