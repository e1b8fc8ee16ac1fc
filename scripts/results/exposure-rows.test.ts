import { exposureRows } from "./exposure-rows";
import { metricDisplay } from "../../app/utils/metrics-display";
import { resultRows } from "./rows";

describe("exposure figures as flat rows", () => {
  const group = (coverage: number) => ({
    predictionCoverage: coverage,
    byK: [{ k: 10, longTailShare: 0.3, gini: 0.7, subjectEntropy: 0.5 }],
  });
  const system = {
    key: "sys",
    overall: { measures: {} },
    subjects: {},
    exposure: { overall: group(1), subjects: { bio: group(0.5) } },
  };

  it("gives prediction coverage and, per K, long-tail share, Gini and subject entropy per group", () => {
    expect(exposureRows([system]).map((r) => [r.group, r.measure, r.value])).toEqual([
      ["overall", "PredictionCoverage", 1],
      ["overall", "LongTailShare@10", 0.3],
      ["overall", "Gini@10", 0.7],
      ["overall", "SubjectEntropy@10", 0.5],
      ["bio", "PredictionCoverage", 0.5],
      ["bio", "LongTailShare@10", 0.3],
      ["bio", "Gini@10", 0.7],
      ["bio", "SubjectEntropy@10", 0.5],
    ]);
    expect(resultRows("offline", { systems: [system] })).toHaveLength(8);
  });

  it("gives none for a report frozen before these figures existed", () => {
    expect(
      resultRows("offline", {
        systems: [{ key: "old", overall: { measures: { AP: { value: 0.2, ci: null } } }, subjects: {} }],
      }),
    ).toHaveLength(1);
  });

  it("names and shows them: shares as rates, a lower Gini is better", () => {
    expect(metricDisplay("LongTailShare@10")).toMatchObject({
      label: "Long-tail share@10",
      kind: "rate",
      direction: "higher",
    });
    expect(metricDisplay("Gini@10")).toMatchObject({
      label: "Gini of exposure@10",
      kind: "score",
      direction: "lower",
    });
    expect(metricDisplay("PredictionCoverage")).toMatchObject({ label: "Prediction coverage", kind: "rate" });
    expect(metricDisplay("SubjectEntropy@5").label).toBe("Subject entropy@5");
  });
});
