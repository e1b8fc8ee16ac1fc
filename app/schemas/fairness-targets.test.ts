import { describe, expect, it } from "vitest";
import { fairnessTargetParams, parseFairnessTargets, targetsText } from "./fairness-targets";
import { sharePoints, POOL_SERIES, TARGET_SERIES } from "~/components/dashboards/offline/fairness-chart";

const query = (q: string) => new URLSearchParams(q);

describe("the offline page's targets (?target=)", () => {
  it("reads one or several targets and writes them back as the field shows them", () => {
    const parsed = parseFairnessTargets(query("target=gender%3Df%3A0.4%2C%20country%3DDE%3A0.2"));
    expect(parsed).toEqual({
      targets: [
        { attribute: "gender", value: "f", share: 0.4 },
        { attribute: "country", value: "DE", share: 0.2 },
      ],
    });
    expect(targetsText("targets" in parsed ? parsed.targets : [])).toBe("gender=f:0.4, country=DE:0.2");
    expect(parseFairnessTargets(query(""))).toEqual({ targets: [] });
  });

  it.each([
    ["target=gender%3Df%3A1.4", 'target "gender=f:1.4": the share must be a number from 0 to 1, not "1.4"'],
    ["target=gender%3Df", 'target "gender=f": write attribute=value:share, e.g. gender=f:0.4'],
    ["target=gender%3Df%3A0.4&target=gender%3Df%3A0.5", 'target "gender=f:0.5": gender=f is set twice'],
  ])("refuses %s with a sentence naming the target, and a 400", async (q, error) => {
    expect(parseFairnessTargets(query(q))).toEqual({ error });
    let thrown: unknown;
    try {
      fairnessTargetParams(new Request(`http://x/analyst?${q}`));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).json()).toEqual({ message: error });
  });
});

describe("the share-by-K chart's series", () => {
  const figure = (value: number) => ({ value, ci: { lower: value - 0.1, upper: value + 0.1 }, lists: 3 });
  const group = (share5: number, share10: number, extra: object = {}) => ({
    poolSize: 10,
    poolShare: 0.5,
    ...extra,
    figures: { "share@5": figure(share5), "share@10": figure(share10) },
  });
  const report = {
    baseline: {
      proposals: 3,
      diversity: null,
      attributes: {
        gender: { figures: {}, groups: { f: group(0.4, 0.45, { target: 0.4 }), m: group(0.6, 0.55) } },
      },
    },
    challenger: {
      proposals: 3,
      diversity: null,
      attributes: {
        gender: { figures: {}, groups: { f: group(0.2, 0.3, { target: 0.4 }), m: group(0.8, 0.7) } },
      },
    },
  };

  it("draws each system with its band, the pool share, and the target only where one is set", () => {
    const points = sharePoints(report, "gender", [5, 10]);
    const of = (group: string, series: string) =>
      points.filter((p) => p.group === group && p.series === series);
    expect(of("f", "challenger")).toEqual([
      { group: "f", series: "challenger", k: 5, share: 0.2, lower: 0.2 - 0.1, upper: 0.2 + 0.1 },
      { group: "f", series: "challenger", k: 10, share: 0.3, lower: 0.3 - 0.1, upper: 0.3 + 0.1 },
    ]);
    expect(of("f", POOL_SERIES).map((p) => p.share)).toEqual([0.5, 0.5]);
    expect(of("f", TARGET_SERIES).map((p) => p.share)).toEqual([0.4, 0.4]);
    expect(of("m", TARGET_SERIES)).toEqual([]);
    // The legend lists exactly the series drawn.
    expect([...new Set(points.map((p) => p.series))]).toEqual([
      "baseline",
      "challenger",
      POOL_SERIES,
      TARGET_SERIES,
    ]);
  });
});
