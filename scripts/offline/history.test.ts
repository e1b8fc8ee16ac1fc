import { earlierHistory } from "./history";

describe("what a baseline may learn from", () => {
  const proposals = [
    { id: "a", date: "2024-01-01" },
    { id: "b", date: "2024-02-01" },
    { id: "c", date: "2024-02-01" },
    { id: "d", date: null },
  ];
  const before = earlierHistory(proposals, (earlier) => earlier.map((p) => p.id));

  it("gives a dated proposal the proposals dated strictly before it, never an undated one", () => {
    expect(before("2024-02-01")).toEqual(["a"]);
    expect(before("2024-03-01")).toEqual(["a", "b", "c"]);
    expect(before("2024-01-01")).toEqual([]);
  });

  it("gives null (leave-one-out) for an undated proposal or when nothing is dated", () => {
    expect(before(null)).toBeNull();
    expect(earlierHistory([{ date: null }], () => 1)("2024-01-01")).toBeNull();
  });

  it("builds each date's history once", () => {
    let builds = 0;
    const counted = earlierHistory(proposals, () => ++builds);
    counted("2024-02-01");
    counted("2024-02-01");
    expect(builds).toBe(1);
  });
});
