import { pagerankLists } from "./pagerank-baseline";

describe("the pagerank baseline", () => {
  // Candidates 1..5. Subject 1: proposals 10 {1,2,3} and 11 {1,2}; subject 2: proposal 12 {3,4}; 13 has no subject.
  const candidates = [1, 2, 3, 4, 5].map((id) => ({ id }));
  const proposals = [
    { id: 10, subjectId: 1 },
    { id: 11, subjectId: 1 },
    { id: 12, subjectId: 2 },
    { id: 13, subjectId: null },
  ];
  const goldOf = new Map([
    [10, new Set([1, 2, 3])],
    [11, new Set([1, 2])],
    [12, new Set([3, 4])],
  ]);
  const listOf = pagerankLists(candidates, proposals, goldOf, 10);

  it("leaves the proposal's own committee out: a member who sat only there is not listed for it", () => {
    // Without committee 10, subject 1 has only {1, 2} (from 11): candidate 3 sat on subject 1 only in 10.
    expect(listOf(10).map((c) => c.id)).toEqual([1, 2]);
    // Without committee 12, nobody else sat on a subject-2 committee.
    expect(listOf(12)).toEqual([]);
  });

  it("ranks the whole catalog highest first when the proposal has no subject, ties by id", () => {
    const list = listOf(13);
    expect(list.map((c) => c.id)).toEqual([3, 1, 2, 4, 5]);
    // 13 has no committee: its scores are the full graph's PageRank (the hand-solved system in pagerank.test.ts).
    expect(list[0].score).toBeCloseTo(0.29366352, 7);
    expect(list[4].score).toBeCloseTo(0.03614458, 7);
  });
});

describe("the pagerank baseline with dated committees", () => {
  // 20 {1,2} and 21 {2,3} are earlier than 22 {1,3}; 23 is undated; all without a subject.
  const candidates = [1, 2, 3, 4].map((id) => ({ id }));
  const proposals = [
    { id: 20, subjectId: null, date: "2024-01-10" },
    { id: 21, subjectId: null, date: "2024-02-10" },
    { id: 22, subjectId: null, date: "2024-03-10" },
    { id: 23, subjectId: null, date: null },
  ];
  const goldOf = new Map([
    [20, new Set([1, 2])],
    [21, new Set([2, 3])],
    [22, new Set([1, 3])],
    [23, new Set([4, 1])],
  ]);
  const listOf = pagerankLists(candidates, proposals, goldOf, 10);

  it("learns only from committees dated before the proposal", () => {
    // Before 22: the path 1–2–3, so 2 is central; 22's own link 1–3 (and the later ones) play no part.
    const list = listOf(22);
    expect(list[0].id).toBe(2);
    expect(list.find((c) => c.id === 1)!.score).toBeCloseTo(list.find((c) => c.id === 3)!.score, 12);
    // Before 21: only 20's committee; 3 sat on no earlier committee and ties with 4 at the teleport rank.
    const first = listOf(21);
    expect(first.slice(0, 2).map((c) => c.id)).toEqual([1, 2]);
    expect(first[2].score).toBe(first[3].score);
  });

  it("sees nothing before the earliest proposal: every candidate ties", () => {
    const list = listOf(20);
    expect(new Set(list.map((c) => c.score)).size).toBe(1);
    expect(list.map((c) => c.id)).toEqual([1, 2, 3, 4]);
  });

  it("leaves only its own committee out when the proposal is undated, and learns from every other", () => {
    // 23 without its own link 1–4: the triangle 1–2–3 of the dated committees; 4 has no link left.
    const score = new Map(listOf(23).map((c) => [c.id, c.score]));
    expect(score.get(1)).toBeCloseTo(score.get(2)!, 12);
    expect(score.get(3)).toBeCloseTo(score.get(2)!, 12);
    expect(score.get(4)!).toBeLessThan(score.get(1)!);
  });
});
