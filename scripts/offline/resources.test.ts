import { resultRows } from "../results/rows";
import { offlineReport, type OfflineInput } from "./report";

describe("prediction time and build figures per system", () => {
  // Five lists over three proposals; four carry a latency: 10, 20, 30, 100 ms (p4 is outside the report's proposals).
  const list = (ids: string[]) => new Map([["default", ids]]);
  const input: OfflineInput = {
    proposals: [
      { id: "p1", subject: null },
      { id: "p2", subject: null },
      { id: "p3", subject: null },
    ],
    gold: new Map([
      ["p1", new Set(["a"])],
      ["p2", new Set(["b"])],
      ["p3", new Set(["c"])],
    ]),
    systems: [
      {
        key: "fast",
        name: "Fast",
        lists: new Map([
          [
            "p1",
            new Map([
              ["default", ["a"]],
              ["short", ["b"]],
            ]),
          ],
          ["p2", list(["b"])],
          ["p3", list(["x"])],
          ["p4", list(["x"])],
        ]),
        latencies: new Map([
          [
            "p1",
            new Map([
              ["default", 10],
              ["short", 20],
            ]),
          ],
          ["p2", new Map([["default", 30]])],
          ["p4", new Map([["default", 5000]])],
        ]),
        buildSeconds: 12.5,
        memoryMb: 2048,
      },
      { key: "untimed", name: "Untimed", lists: new Map([["p1", list(["a"])]]) },
    ],
    catalog: new Set(["a", "b", "c", "x"]),
  };
  const report = offlineReport(input, { ks: [1], B: 300, seed: 3 });
  const [fast, untimed] = report.systems;

  it("gives p50, p95 and max over the timed lists of the evaluated proposals, with bootstrap CIs", () => {
    expect(fast.resources).toMatchObject({ lists: 4, timed: 3, buildSeconds: 12.5, memoryMb: 2048 });
    // Type 7 over 10, 20, 30: p50 20, p95 at h = 1.9 → 20 + 0.9·10 = 29.
    expect(fast.resources.p50.value).toBe(20);
    expect(fast.resources.p95.value).toBeCloseTo(29, 12);
    expect(fast.resources.max.value).toBe(30);
    expect(fast.resources.mean).toBe(20);
    const ci = fast.resources.p50.ci!;
    expect(ci.lower).toBeGreaterThanOrEqual(10);
    expect(ci.upper).toBeLessThanOrEqual(30);
    expect(fast.resources.max.ci!.upper).toBe(30);
  });

  it("describes the distribution at every 5% for the chart", () => {
    const q = fast.resources.quantiles;
    expect(q).toHaveLength(21);
    expect(q[0]).toEqual({ p: 0, ms: 10 });
    expect(q[10]).toEqual({ p: 0.5, ms: 20 });
    expect(q[20]).toEqual({ p: 1, ms: 30 });
    // Type 7 at 25%: h = 0.5 → 15.
    expect(q[5].ms).toBeCloseTo(15, 12);
  });

  it("carries them into the snapshot rows, in the system's overall group", () => {
    const rows = resultRows("offline", report).filter((r) => r.system === "fast" && r.group === "overall");
    expect(rows.find((r) => r.measure === "LatencyP50")).toMatchObject({ value: 20 });
    expect(rows.find((r) => r.measure === "MemoryMb")).toMatchObject({ value: 2048, lower: null });
  });

  it("says so when a system reported no time at all", () => {
    expect(untimed.resources).toEqual({
      lists: 1,
      timed: 0,
      p50: { value: null, ci: null },
      p95: { value: null, ci: null },
      max: { value: null, ci: null },
      mean: null,
      quantiles: [],
      buildSeconds: null,
      memoryMb: null,
    });
  });
});
