import { generateDemo } from "../demo/generate";
import { resultRows } from "../results/rows";
import { offlineReport, type OfflineInput } from "./report";

function inputFrom(data: ReturnType<typeof generateDemo>): OfflineInput {
  const gold = new Map<string, Set<string>>();
  for (const g of data.gold) {
    if (!gold.has(g.proposal)) gold.set(g.proposal, new Set());
    gold.get(g.proposal)!.add(g.candidate);
  }
  return {
    proposals: data.proposals.map((p) => ({ id: p.externalId, title: p.title, subject: p.subject })),
    gold,
    systems: data.systems.map((s) => ({
      key: s.key,
      name: s.name,
      lists: new Map(
        data.lists
          .filter((l) => l.system === s.key)
          .map((l) => [l.proposal, new Map([[l.variant, l.items.map((i) => i.candidate)]])]),
      ),
    })),
    catalog: new Set(data.candidates.map((c) => c.externalId)),
  };
}

describe("offline report, hand-worked", () => {
  // p1: gold {a, b}; list a x b → hit at 1 and 3. p2: gold {z}; list x y → recall failure.
  // p3: gold {c}; list has c at rank 4 → ranking failure at K = 2. p3 has a second variant with c at rank 1.
  const input: OfflineInput = {
    proposals: [
      { id: "p1", subject: "s1" },
      { id: "p2", subject: "s1" },
      { id: "p3", subject: "s2" },
      { id: "p4", subject: "s2" }, // no gold: not evaluated
    ],
    gold: new Map([
      ["p1", new Set(["a", "b"])],
      ["p2", new Set(["z"])],
      ["p3", new Set(["c"])],
    ]),
    systems: [
      {
        key: "sys",
        name: "System",
        lists: new Map([
          ["p1", new Map([["default", ["a", "x", "b"]]])],
          ["p2", new Map([["default", ["x", "y"]]])],
          [
            "p3",
            new Map([
              ["default", ["x", "y", "w", "c"]],
              ["short", ["c", "x"]],
            ]),
          ],
          ["p4", new Map([["default", ["a"]]])],
        ]),
      },
    ],
    catalog: new Set(["a", "b", "c", "w", "x", "y", "z", "q"]),
  };
  const report = offlineReport(input, { ks: [2, 4], B: 200, seed: 1, failureK: 2 });
  const sys = report.systems[0];
  const m = sys.overall.measures;

  it("evaluates only proposals with gold, averaging over variants", () => {
    expect(sys.proposals).toBe(3);
    // Success@2: p1 1, p2 0, p3 mean(0, 1) = 0.5
    expect(m["Success@2"].value).toBeCloseTo(1.5 / 3, 12);
    // RR@4: p1 1, p2 0, p3 mean(1/4, 1)
    expect(m["RR@4"].value).toBeCloseTo((1 + 0 + (0.25 + 1) / 2) / 3, 12);
    // AP: p1 (1 + 2/3)/2, p2 0, p3 mean(1/4, 1)
    expect(m.AP.value).toBeCloseTo(((1 + 2 / 3) / 2 + 0 + 0.625) / 3, 12);
    // Rank(g=1): p1 1, p3 mean(4, 1) = 2.5; p2 missing
    expect(m["Rank(g=1)"].value).toBeCloseTo(1.75, 12);
    expect(m.PoolRecall.value).toBeCloseTo((1 + 0 + 1) / 3, 12);
    // Coverage@2 over the first list of each proposal: a x | x y | x y → {a, x, y} of 8
    expect(m["Coverage@2"].value).toBe(3 / 8);
  });

  it("gives HLU as published (mean of per-proposal utilities) and HLU-ratio (ratio of sums) apart", () => {
    const h = (k: number) => 2 ** (-k / 5);
    // p1: relevant at 0-based 0 and 2 of 2 gold; p2: none of 1; p3: c at 3 (default) and 0 (short).
    const p1 = { num: 1 + h(2), den: 1 + h(1) };
    const published = (100 * p1.num) / p1.den + 0 + (100 * (h(3) + 1)) / 2;
    expect(m["HLU(a=5)"].value).toBeCloseTo(published / 3, 12);
    // The ratio pools every list's parts: p3's two variants add h(3) + 1 over 1 + 1.
    const ratio = (100 * (p1.num + 0 + h(3) + 1)) / (p1.den + 1 + 2);
    expect(m["HLU-ratio(a=5)"].value).toBeCloseTo(ratio, 12);
    expect(m["HLU(a=5)"].ci!.lower).toBeLessThanOrEqual(m["HLU(a=5)"].value!);
  });

  it("gives the SD and variance across proposals of every measure at every K beside mean and CI", () => {
    // RR@4 per proposal: 1, 0, mean(1/4, 1) = 0.625; sample variance (n - 1).
    const values = [1, 0, 0.625];
    const mean = values.reduce((a, b) => a + b) / 3;
    const v = values.reduce((a, x) => a + (x - mean) ** 2, 0) / 2;
    expect(m["RR@4"].variance).toBeCloseTo(v, 12);
    expect(m["RR@4"].sd).toBeCloseTo(Math.sqrt(v), 12);
    // Rank(g=1) leaves out p2 (nothing retrieved): 1 and 2.5.
    expect(m["Rank(g=1)"].variance).toBeCloseTo(1.125, 12);
    for (const k of [2, 4]) expect(m[`Success@${k}`].sd).not.toBeNull();
    // Coverage@K is one figure for the whole set of lists: no spread.
    expect(m["Coverage@2"].sd ?? null).toBeNull();
    // One proposal has no spread.
    expect(sys.subjects.s2.measures["RR@4"].sd).toBeNull();
  });

  it("gives each subject its weight share and its own K_hit median and p90", () => {
    expect(sys.subjects.s1.weightShare).toBeCloseTo(2 / 3, 12);
    expect(sys.subjects.s2.weightShare).toBeCloseTo(1 / 3, 12);
    // s1: p1 first hit at 1, p2 none; s2: p3 mean(4, 1) = 2.5.
    expect(sys.subjects.s1.kHit!.median.value).toBe(1);
    expect(sys.subjects.s2.kHit!.p90.value).toBe(2.5);
    expect(sys.subjects.s2.kHit!.median.ci).toEqual({ lower: 2.5, upper: 2.5 });
  });

  it("carries the spread, weight shares and subjects' K_hit into the snapshot rows", () => {
    const rows = resultRows("offline", report);
    const find = (group: string, measure: string) =>
      rows.find((r) => r.group === group && r.measure === measure);
    expect(find("overall", "SD RR@4")?.value).toBeCloseTo(m["RR@4"].sd!, 12);
    expect(find("overall", "SD Coverage@2")).toBeUndefined();
    expect(find("s1", "WeightShare")?.value).toBeCloseTo(2 / 3, 12);
    expect(find("s2", "K_hit median")).toMatchObject({ value: 2.5, lower: 2.5, upper: 2.5 });
  });

  it("gives binary nDCG@K on committees and user coverage over all proposals", () => {
    // nDCG@2: p1 a x (gold a, b) 1 / (1 + 1/log2 3); p2 0; p3 mean(0, 1).
    expect(m["nDCG@2"].value).toBeCloseTo((1 / (1 + 1 / Math.log2(3)) + 0 + 0.5) / 3, 12);
    // p4 has no gold but a list: user coverage counts it, the measures do not.
    expect(sys.userCoverage).toEqual({ proposals: 4, withList: 4, share: 1 });
  });

  it("drops proposals whose committee is larger than --max-committee, and lists them", () => {
    const capped = offlineReport(input, { ks: [2, 4], B: 50, seed: 1, failureK: 2, maxCommittee: 1 });
    expect(capped.committeeCap).toEqual({ max: 1, dropped: [{ proposal: "p1", members: 2 }] });
    expect(capped.systems[0].proposals).toBe(2);
    expect(report.committeeCap).toBeUndefined();
  });

  it("tells recall failures from ranking failures and lists the failure cases", () => {
    expect(sys.failureBreakdown.find((f) => f.k === 2)).toEqual({
      k: 2,
      successShare: 0.5,
      recallFailures: 1,
      rankingFailures: 0,
    });
    expect(sys.failures.map((f) => f.proposal)).toEqual(["p2"]);
    expect(sys.failures[0]).toMatchObject({ gold: ["z"], top: ["x", "y"] });
  });

  it("reports the Rank(g) distribution with the share missing", () => {
    expect(sys.rankDistribution[0]).toMatchObject({ g: 1, proposals: 3, missing: 1, median: 1.75 });
    expect(sys.rankDistribution[1]).toMatchObject({ g: 2, missing: 2, mean: 3 });
  });

  it("gives the Rank(g) mean, median and p90 their intervals over proposals; g = 1's are K_hit's", () => {
    const [g1, g2] = sys.rankDistribution;
    // g = 1: the ranks 1 and 2.5; a resample is {1, 1}, {1, 2.5} or {2.5, 2.5} (¼, ½, ¼), so with
    // B = 200 the 95% interval of the mean runs from 1 to 2.5 (a miss of either end has chance 0.75^200).
    expect(g1.meanCi).toEqual({ lower: 1, upper: 2.5 });
    expect(g1.medianCi).toEqual(sys.kHit.median.ci);
    expect(g1.p90Ci).toEqual(sys.kHit.p90.ci);
    expect(g1.medianCi).toEqual({ lower: 1, upper: 2.5 });
    // g = 2: one proposal has two members retrieved: every resample is that one.
    expect(g2).toMatchObject({ meanCi: { lower: 3, upper: 3 }, medianCi: { lower: 3, upper: 3 } });
    expect(sys.rankDistribution[2]).toMatchObject({ mean: null, meanCi: null, medianCi: null });
  });

  it("reports the spread across query variants", () => {
    expect(sys.variants).toMatchObject({ proposalsWithSeveral: 1 });
    expect(sys.variants!.spread["Success@2"]).toBe(1);
  });

  it("is deterministic for a seed", () => {
    expect(offlineReport(input, { ks: [2, 4], B: 200, seed: 1, failureK: 2 })).toEqual(report);
  });
});

describe("offline report on demo data", () => {
  const data = generateDemo({ proposals: 60, candidates: 600, seed: "offline-test" });
  const report = offlineReport(inputFrom(data), { B: 300, seed: 2 });
  const [baseline, challenger] = report.systems;

  it("finds the challenger measurably better than the baseline", () => {
    expect(challenger.overall.measures["Success@10"].value!).toBeGreaterThan(
      baseline.overall.measures["Success@10"].value!,
    );
    expect(challenger.overall.measures.AP.value!).toBeGreaterThan(baseline.overall.measures.AP.value!);
    const ap = report.comparisons.find((c) => c.measure === "AP")!;
    expect(ap).toMatchObject({ a: "baseline", b: "challenger", proposals: 60 });
    expect(ap.difference).toBeGreaterThan(0);
    expect(ap.pAdjusted).toBeGreaterThanOrEqual(ap.pValue);
  });

  it("gives every difference between two systems a paired bootstrap interval, in the snapshot rows too", () => {
    for (const c of report.comparisons) {
      expect(c.ci!.lower).toBeLessThanOrEqual(c.difference + 1e-12);
      expect(c.ci!.upper).toBeGreaterThanOrEqual(c.difference - 1e-12);
    }
    const ap = report.comparisons.find((c) => c.measure === "AP")!;
    // The challenger is better on AP: the whole interval lies above 0.
    expect(ap.ci!.lower).toBeGreaterThan(0);
    const row = resultRows("offline", report).find(
      (r) => r.system === "challenger" && r.group === "vs baseline" && r.measure === "AP difference",
    );
    expect(row).toEqual({
      system: "challenger",
      group: "vs baseline",
      measure: "AP difference",
      value: ap.difference,
      lower: ap.ci!.lower,
      upper: ap.ci!.upper,
    });
  });

  it("pairs the proposals: a system that scores every proposal the same as another has the interval [0, 0]", () => {
    const same = offlineReport(
      {
        ...inputFrom(data),
        systems: inputFrom(data).systems.flatMap((s, i) =>
          i === 0 ? [s, { ...s, key: "copy", name: "copy" }] : [],
        ),
      },
      { B: 300, seed: 2 },
    );
    const ap = same.comparisons.find((c) => c.measure === "AP")!;
    expect(ap).toMatchObject({ difference: 0, ci: { lower: 0, upper: 0 } });
  });

  it("gives intervals around the point estimates, per subject too, and a display-depth hint", () => {
    const e = baseline.overall.measures["Success@10"];
    expect(e.ci!.lower).toBeLessThanOrEqual(e.value!);
    expect(e.ci!.upper).toBeGreaterThanOrEqual(e.value!);
    expect(Object.keys(baseline.subjects).length).toBe(8);
    expect(baseline.hints.displayDepth).toBe(Math.ceil(baseline.kHit.p90.value!));
    expect(baseline.kHit.median.ci!.lower).toBeLessThanOrEqual(baseline.kHit.median.value!);
  });
});

describe("query variants tested against the default", () => {
  // Three proposals, gold {g}: the default finds g at rank 1 each time; "long" at rank 2, 2, 4.
  const lists = (long: string[]) =>
    new Map([
      ["default", ["g", "x"]],
      ["long", long],
    ]);
  const input: OfflineInput = {
    proposals: ["p1", "p2", "p3"].map((id) => ({ id, subject: null })),
    gold: new Map(["p1", "p2", "p3"].map((id) => [id, new Set(["g"])])),
    systems: [
      {
        key: "s",
        name: "S",
        lists: new Map([
          ["p1", lists(["x", "g"])],
          ["p2", lists(["y", "g"])],
          ["p3", lists(["x", "y", "z", "g"])],
        ]),
      },
    ],
    catalog: new Set(["g", "x", "y", "z"]),
  };
  const variants = offlineReport(input, { ks: [10], B: 100, seed: 1, test: "t" }).systems[0].variants!;

  it("gives each variant's means and a paired test of each against default, Holm-adjusted", () => {
    expect(variants.perVariant).toEqual([
      { variant: "default", proposals: 3, measures: { "Success@10": 1, "RR@10": 1, AP: 1 } },
      {
        variant: "long",
        proposals: 3,
        measures: { "Success@10": 1, "RR@10": (0.5 + 0.5 + 0.25) / 3, AP: (0.5 + 0.5 + 0.25) / 3 },
      },
    ]);
    const rr = variants.tests.find((t) => t.measure === "RR@10")!;
    expect(rr).toMatchObject({ variant: "long", proposals: 3, meanDefault: 1 });
    expect(rr.difference).toBeCloseTo((0.5 + 0.5 + 0.25) / 3 - 1, 12);
    // d = −0.5, −0.5, −0.75: mean −0.5833, sd 0.1443, t = −7.0 on 2 df, two-sided p ≈ 0.0198.
    expect(rr.pValue).toBeCloseTo(0.0198, 3);
    // Holm over the three tests: RR@10 and AP share the smallest p.
    expect(rr.pAdjusted).toBeGreaterThanOrEqual(rr.pValue);
  });

  it("carries each variant's means and differences into the snapshot rows", () => {
    const report = offlineReport(input, { ks: [10], B: 100, seed: 1 });
    const rows = resultRows("offline", report).filter((r) => r.group === "variant long");
    expect(rows.find((r) => r.measure === "RR@10")?.value).toBeCloseTo(1.25 / 3, 12);
    expect(rows.find((r) => r.measure === "RR@10 difference")?.value).toBeCloseTo(1.25 / 3 - 1, 12);
  });
});

describe("query variants: Friedman's test", () => {
  // Gold {g}. RR@10 per proposal (default, long, short): p1 1, 1/2, 1; p2 1, 1/2, 1/3; p3 1, 1/4, 1/2.
  // p4 has no "short" list, so it is not a complete block and stays out of the test.
  const lists = (long: string[], short?: string[]) =>
    new Map([
      ["default", ["g", "x"]],
      ["long", long],
      ...(short ? [["short", short] as [string, string[]]] : []),
    ]);
  const input: OfflineInput = {
    proposals: ["p1", "p2", "p3", "p4"].map((id) => ({ id, subject: null })),
    gold: new Map(["p1", "p2", "p3", "p4"].map((id) => [id, new Set(["g"])])),
    systems: [
      {
        key: "s",
        name: "S",
        lists: new Map([
          ["p1", lists(["x", "g"], ["g"])],
          ["p2", lists(["y", "g"], ["x", "y", "g"])],
          ["p3", lists(["x", "y", "z", "g"], ["x", "g"])],
          ["p4", lists(["x", "g"])],
        ]),
      },
    ],
    catalog: new Set(["g", "x", "y", "z"]),
  };
  const variants = offlineReport(input, { ks: [10], B: 50, seed: 1 }).systems[0].variants!;

  it("tests whether the variant changes the figure, over the proposals with every variant", () => {
    const rr = variants.friedman.find((t) => t.measure === "RR@10")!;
    // scipy 1.17.1: friedmanchisquare([1, 1, 1], [.5, .5, .25], [1, 1/3, .5]) → 3.8181818181818183, p 0.14821506633752016
    expect(rr).toMatchObject({ variants: 3, proposals: 3, method: "Friedman χ², df = 2" });
    expect(rr.statistic).toBeCloseTo(3.8181818181818183, 12);
    expect(rr.pValue).toBeCloseTo(0.14821506633752016, 9);
    // Success@10 is 1 everywhere: every block tied, no test.
    expect(variants.friedman.find((t) => t.measure === "Success@10")).toBeUndefined();
  });

  it("has no Friedman test with two variants (the paired test is the test there)", () => {
    const two = offlineReport(
      { ...input, systems: [{ ...input.systems[0], lists: new Map([["p1", lists(["x", "g"])]]) }] },
      { ks: [10], B: 50 },
    ).systems[0].variants!;
    expect(two.friedman).toEqual([]);
  });
});
