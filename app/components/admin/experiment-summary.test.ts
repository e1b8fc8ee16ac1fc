import { describe, expect, it } from "vitest";
import { experimentSummary } from "./experiment-summary";

describe("experimentSummary", () => {
  it("says each number's unit: a share as a percentage of conveners, a cap in members", () => {
    const text = experimentSummary({
      coverage: 1,
      seed: "exp-1",
      committeeCap: 5,
      arms: [
        { key: "A", systemKey: "baseline", weight: 0.5, isControl: true },
        { key: "B", systemKey: "challenger", weight: 0.5, isControl: false },
      ],
    });
    expect(text).toBe(
      "Coverage 100% of conveners, hash seed “exp-1”, committee cap 5 members. Arms: A = baseline (weight 50.0%, control); B = challenger (weight 50.0%).",
    );
    expect(text).not.toMatch(/Coverage 1\b|weight 0\.5/);
  });

  it("writes one member in the singular and a part coverage as a percentage", () => {
    const text = experimentSummary({ coverage: 0.25, seed: "s", committeeCap: 1, arms: [] });
    expect(text).toMatch(/^Coverage 25(\.0)?% of conveners, .*committee cap 1 member\./);
  });
});
