import { averagePrecision } from "./ap";
import { halfLifeParts } from "./hlu";
import { judgedAt } from "./judged";
import { ndcg } from "./ndcg";
import { poolRecall } from "./pool-recall";
import { precision, recall } from "./precision-recall";
import { reciprocalRank } from "./rr";
import { rankOfNth, success } from "./success";
import { evaluateQueries, summarize } from "../evaluate";
import { parseMeasures } from "../measures";
import { FormatError, parseRun, runLists } from "../trec";

const U = NaN; // an unjudged item
const desc = (...labels: number[]) => labels.sort((a, b) => b - a);

describe("hand-worked measures", () => {
  // Ranked labels: rank1 = 3, rank2 = unjudged, rank3 = 0, rank4 = 1; the query also has an unretrieved 2.
  const ranked = [3, U, 0, 1];
  const judged = desc(3, 0, 1, 2);

  it("nDCG@K with linear and exponential gain", () => {
    const dcg = 3 / Math.log2(2) + 1 / Math.log2(5);
    const idcg = 3 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4);
    expect(ndcg(ranked, judged, 4)).toBeCloseTo(dcg / idcg, 12);
    expect(ndcg(ranked, judged, 1)).toBe(1);
    const dcgExp = 7 + 1 / Math.log2(5);
    const idcgExp = 7 + 3 / Math.log2(3) + 1 / Math.log2(4);
    expect(ndcg(ranked, judged, 4, "exp")).toBeCloseTo(dcgExp / idcgExp, 12);
  });

  it("AP divides by R, not min(K, R)", () => {
    // relevant (≥1) at ranks 1 and 4; R = 3
    expect(averagePrecision(ranked, judged)).toBeCloseTo((1 / 1 + 2 / 4) / 3, 12);
    expect(averagePrecision(ranked, judged, 2)).toBeCloseTo(1 / 3, 12);
    expect(averagePrecision(ranked, judged, undefined, 2)).toBeCloseTo(1 / 2, 12); // only the 3 (rank 1) and the unretrieved 2
  });

  it("RR, P, R and Success", () => {
    expect(reciprocalRank([0, U, 2], undefined)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank([0, U, 2], 2)).toBe(0);
    expect(precision(ranked, 4)).toBe(0.5);
    expect(precision(ranked, 10)).toBe(0.2); // K beyond the list still divides by K
    expect(recall(ranked, judged, 4)).toBeCloseTo(2 / 3, 12);
    expect(success(ranked, 3)).toBe(1);
    expect(success(ranked, 3, 1, 2)).toBe(0);
    expect(success(ranked, 4, 1, 2)).toBe(1);
  });

  it("Rank(g) is the rank of the g-th relevant item, or null when there are fewer", () => {
    expect(rankOfNth(ranked, 1)).toBe(1);
    expect(rankOfNth(ranked, 2)).toBe(4);
    expect(rankOfNth(ranked, 3)).toBeNull();
  });

  it("Judged@K counts labelled items over min(K, list length), as ir_measures", () => {
    expect(judgedAt(ranked, 2)).toBe(0.5);
    expect(judgedAt(ranked, 8)).toBe(3 / 4);
    expect(judgedAt(Float64Array.of(2, 0, 1, 0, 3), 10)).toBe(1);
    expect(judgedAt(Float64Array.of(2, U, 1, U, 3), 10)).toBe(3 / 5);
    expect(judgedAt(new Float64Array(0), 10)).toBe(0);
  });

  it("HLU parts: numerator over retrieved relevant positions, denominator over the best possible", () => {
    const { num, den } = halfLifeParts(ranked, judged, 5);
    expect(num).toBeCloseTo(1 + 2 ** (-3 / 5), 12);
    expect(den).toBeCloseTo(1 + 2 ** (-1 / 5) + 2 ** (-2 / 5), 12);
  });

  it("pool recall: relevant found anywhere in the list over R", () => {
    expect(poolRecall(ranked, judged)).toBeCloseTo(2 / 3, 12);
    expect(poolRecall([1], [0])).toBeNull();
  });
});

describe("edge cases", () => {
  it("an empty list scores 0 everywhere and has no Rank", () => {
    const judged = desc(1, 2);
    expect(ndcg([], judged, 10)).toBe(0);
    expect(averagePrecision([], judged)).toBe(0);
    expect(reciprocalRank([])).toBe(0);
    expect(precision([], 5)).toBe(0);
    expect(rankOfNth([], 1)).toBeNull();
  });

  it("IDCG = 0 (no positive label) gives nDCG 0, and R = 0 gives AP and recall 0", () => {
    expect(ndcg([0, U], [0, 0], 10)).toBe(0);
    expect(averagePrecision([0], [0])).toBe(0);
    expect(recall([0], [0], 5)).toBe(0);
  });

  it("unlabelled items are not relevant and carry no gain", () => {
    expect(ndcg([U, 1], [1], 2)).toBeCloseTo(1 / Math.log2(3), 12);
    expect(reciprocalRank([U, U, 1])).toBeCloseTo(1 / 3, 12);
  });

  it("ties in score are broken by docid descending, as trec_eval does", () => {
    const run = parseRun(Buffer.from("q1 Q0 b 1 0.5 s\nq1 Q0 a 2 0.5 s\nq1 Q0 c 3 0.5 s\nq1 Q0 z 4 0.9 s\n"));
    expect(runLists(run).get("q1")).toEqual(["z", "c", "b", "a"]);
  });

  it("reads a run whose queries are interleaved, or share a prefix, as the same run grouped", () => {
    const lines = [
      "q1 Q0 a 1 0.9 s",
      "q12 Q0 x 1 0.9 s",
      "q1 Q0 b 2 0.8 s",
      "q12 Q0 y 2 0.8 s",
      "q1\tQ0 c 3 0.7 s",
      "q2 Q0 d 1 0.5 s",
      "q12 Q0 z 3 0.7 s",
      "q1 Q0 e 4 0.6 s",
    ];
    const interleaved = runLists(parseRun(Buffer.from(lines.join("\n") + "\n")));
    const grouped = runLists(
      parseRun(
        Buffer.from(
          [...lines]
            .sort((a, b) =>
              a.split(/\s/)[0] < b.split(/\s/)[0] ? -1 : a.split(/\s/)[0] > b.split(/\s/)[0] ? 1 : 0,
            )
            .join("\n") + "\n",
        ),
      ),
    );
    expect(interleaved).toEqual(
      new Map([
        ["q1", ["a", "b", "c", "e"]],
        ["q12", ["x", "y", "z"]],
        ["q2", ["d"]],
      ]),
    );
    expect(new Map([...grouped].sort())).toEqual(new Map([...interleaved].sort()));
  });

  it("a duplicate candidate in one list is an error naming it", () => {
    expect(() => parseRun(Buffer.from("q1 Q0 a 1 0.5 s\nq2 Q0 a 1 0.5 s\nq1 Q0 a 2 0.4 s\n"))).toThrow(
      new FormatError("run: a appears twice in the list of query q1"),
    );
  });

  it("malformed run lines are errors that name the line", () => {
    expect(() => parseRun(Buffer.from("q1 Q0 a 1 0.5 s\nq1 Q0 b 2\n"))).toThrow(
      "run line 2: expected 6 fields",
    );
    expect(() => parseRun(Buffer.from("q1 Q0 a 1 high s\n"))).toThrow(
      'run line 1: the score "high" is not a number',
    );
  });

  it("scores parse exactly as Number() does, exponents included", () => {
    const run = parseRun(
      Buffer.from("q Q0 a 1 1e-3 s\nq Q0 b 2 -0.25 s\nq Q0 c 3 0.30000000000000004 s\nq Q0 d 4 0.0011 s\n"),
    );
    expect(Array.from(run.order, (e) => run.score[e])).toEqual([0.30000000000000004, 0.0011, 1e-3, -0.25]);
  });
});

describe("aggregation", () => {
  const queries = [
    { qid: "a", ranked: [1, 0, 0], judged: [1, 1], items: ["x", "y", "z"] },
    { qid: "b", ranked: [0, 0, 0], judged: [1], items: ["x", "w", "v"] },
  ];
  it("Rank(g) averages over queries that have one and reports the rest apart", () => {
    const s = summarize(evaluateQueries(queries, parseMeasures(["Rank(g=1)", "Rank(g=2)"])));
    expect(s.aggregate["Rank(g=1)"]).toBe(1);
    expect(s.missing["Rank(g=1)"]).toEqual({ count: 1, share: 0.5 });
    expect(s.aggregate["Rank(g=2)"]).toBeNull();
    expect(s.missing["Rank(g=2)"]).toEqual({ count: 2, share: 1 });
  });

  it("HLU is the mean of each query's normalised utility; HLU-ratio pools them as a ratio of sums", () => {
    const s = summarize(evaluateQueries(queries, parseMeasures(["HLU(a=5)", "HLU-ratio(a=5)"])), {
      perQuery: true,
    });
    const a = 100 / (1 + 2 ** (-1 / 5));
    expect(s.aggregate["HLU(a=5)"]).toBeCloseTo((a + 0) / 2, 12);
    expect(s.aggregate["HLU-ratio(a=5)"]).toBeCloseTo((100 * 1) / (1 + 2 ** (-1 / 5) + 1), 12);
    for (const name of ["HLU(a=5)", "HLU-ratio(a=5)"]) {
      expect(s.perQuery.a[name]).toBeCloseTo(a, 12);
      expect(s.perQuery.b[name]).toBe(0);
    }
  });

  it("HLU has no value for a query without a relevant item, and the ratio gives it no weight", () => {
    const withEmpty = [...queries, { qid: "c", ranked: [0, 0], judged: [0], items: ["x", "y"] }];
    const s = summarize(evaluateQueries(withEmpty, parseMeasures(["HLU", "HLU-ratio"])), { perQuery: true });
    expect(s.perQuery.c["HLU(a=5)"]).toBeNull();
    expect(s.missing["HLU(a=5)"]).toEqual({ count: 1, share: 1 / 3 });
    expect(s.aggregate["HLU(a=5)"]).toBeCloseTo(50 / (1 + 2 ** (-1 / 5)), 12);
    expect(s.aggregate["HLU-ratio(a=5)"]).toBeCloseTo(100 / (2 + 2 ** (-1 / 5)), 12);
  });

  it("Coverage@K counts distinct listed candidates over the catalog and rejects outsiders", () => {
    const catalog = new Set(["x", "y", "z", "w", "v", "u", "t", "s"]);
    expect(
      summarize(evaluateQueries(queries, parseMeasures(["Coverage@2"]), { catalog })).aggregate["Coverage@2"],
    ).toBe(3 / 8);
    expect(() =>
      evaluateQueries(queries, parseMeasures(["Coverage@2"]), { catalog: new Set(["x"]) }),
    ).toThrow("candidate y in the list of a is not in the catalog");
    expect(() => evaluateQueries(queries, parseMeasures(["Coverage@2"]))).toThrow(
      "Coverage@2 needs the catalog",
    );
  });
});
