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
