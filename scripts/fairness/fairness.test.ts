import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { fairnessReport } from "./report";
import { normaliser, rankFairness } from "./rank-fairness";
import { alphaNdcg, idealOrder } from "./diversity";
import { jensenShannon } from "./awrf";
import { meanExposure, shareAt } from "./representation";
import { bootstrapStatistics } from "../stats/bootstrap";
import { fairnessReportOnThreads } from "../workers/fairness-reports";

// Values from FairRank, the TREC Fair Ranking 2022 evaluation code and ndeval (test/fixtures/fairness-small/README.md).
const dir = path.resolve(__dirname, "../../test/fixtures/fairness-small");
const rows = (file: string) =>
  Papa.parse<Record<string, string>>(fs.readFileSync(path.join(dir, file), "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
/** An attribute's entry (`groups` and AWRF@K) or the diversity entry of expected.json. */
type Expected = Record<string, number> & { groups: Record<string, Record<string, number>> };
const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8"));

function load() {
  const lists = new Map<string, Map<string, string[]>>();
  for (const r of rows("lists.csv")) {
    const byProposal = lists.get(r.system) ?? new Map<string, string[]>();
    const list = byProposal.get(r.proposal) ?? [];
    list[Number(r.rank) - 1] = r.candidate;
    byProposal.set(r.proposal, list);
    lists.set(r.system, byProposal);
  }
  const attributes = new Map<string, Map<string, string>>();
  for (const r of rows("attributes.csv")) {
    const values = attributes.get(r.attribute) ?? new Map<string, string>();
    values.set(r.candidate, r.value);
    attributes.set(r.attribute, values);
  }
  const aspects = new Map<string, Map<string, Set<string>>>();
  for (const line of fs.readFileSync(path.join(dir, "qrels-subtopics.txt"), "utf8").trim().split("\n")) {
    const [topic, subtopic, candidate, judgment] = line.split(/\s+/);
    if (Number(judgment) <= 0) continue;
    const judged = aspects.get(topic) ?? new Map<string, Set<string>>();
    judged.set(candidate, (judged.get(candidate) ?? new Set()).add(subtopic));
    aspects.set(topic, judged);
  }
  return { lists, attributes, aspects };
}

describe("fairness and diversity against the reference implementations", () => {
  const report = fairnessReport({ ...load(), ks: expected.k, bootstrap: { B: 200 } });

  it("matches every checked value of FairRank, the TREC 2022 AWRF and ndeval within 1e-6", () => {
    let checked = 0;
    for (const [system, bySystem] of Object.entries<Record<string, Expected>>(expected.systems)) {
      for (const [name, attribute] of Object.entries(bySystem)) {
        if (name === "diversity") {
          for (const [measure, value] of Object.entries<number>(attribute)) {
            expect(report[system].diversity![measure].value, `${system} ${measure}`).toBeCloseTo(value, 6);
            checked++;
          }
          continue;
        }
        const got = report[system].attributes[name];
        for (const [group, figures] of Object.entries<Record<string, number>>(attribute.groups))
          for (const [measure, value] of Object.entries(figures)) {
            expect(
              got.groups[group].figures[measure]?.value,
              `${system} ${name}=${group} ${measure}`,
            ).toBeCloseTo(value, 6);
            checked++;
          }
        for (const [measure, value] of Object.entries(attribute))
          if (measure !== "groups") {
            expect(got.figures[measure].value, `${system} ${name} ${measure}`).toBeCloseTo(
              value as number,
              6,
            );
            checked++;
          }
      }
    }
    expect(checked).toBe(238);
  });

  it("takes the exact maximum as the normaliser, as the paper defines it", () => {
    for (const [key, [nd, kl, rd]] of Object.entries<number[]>(expected.normaliserZ.Z)) {
      const [n, p] = key.split(",").map(Number);
      expect(normaliser("rND", n, p)).toBeCloseTo(nd, 9);
      expect(normaliser("rKL", n, p)).toBeCloseTo(kl, 9);
      expect(normaliser("rRD", n, p)).toBeCloseTo(rd, 9);
    }
  });

  it("gives rRD no value for a majority group, and no value where the group is absent", () => {
    expect(report.semantic.attributes.gender.groups.m.figures.rRD).toMatchObject({ value: null, lists: 0 });
    expect(rankFairness("rND", Array(20).fill(false))).toBeNull();
    // The least fair ranking reaches 1: for rND, every protected item first (10 of 50).
    expect(rankFairness("rND", [...Array(10).fill(true), ...Array(40).fill(false)])).toBeCloseTo(1, 12);
    expect(rankFairness("rND", [...Array(40).fill(false), ...Array(10).fill(true)])).toBeLessThan(1);
  });

  it("puts a bootstrap interval around each mean", () => {
    const share = report.citation.attributes.gender.groups.f.figures["share@10"];
    expect(share.lists).toBe(60);
    expect(share.ci!.lower).toBeLessThan(share.value!);
    expect(share.ci!.upper).toBeGreaterThan(share.value!);
  });

  it("hides the figures of a group smaller than the minimum", () => {
    const { lists, attributes } = load();
    const gender = new Map(attributes.get("gender"));
    const few = [...gender.keys()].slice(0, 4);
    for (const c of few) gender.set(c, "x");
    const small = fairnessReport({
      lists,
      attributes: new Map([["gender", gender]]),
      ks: [10],
      bootstrap: { B: 10 },
    });
    expect(small.semantic.attributes.gender.groups.x).toMatchObject({
      poolSize: 4,
      suppressed: "fewer than 5",
      figures: {},
    });
  });

  it("builds the ideal diversity order greedily, ties to the greatest id", () => {
    const judged = new Map([
      ["a", new Set(["1"])],
      ["b", new Set(["1"])],
      ["c", new Set(["1", "2"])],
    ]);
    expect(idealOrder(judged, 3)).toEqual(["c", "b", "a"]);
    expect(alphaNdcg(["c", "b", "a"], judged, 3)).toBeCloseTo(1, 12);
    expect(alphaNdcg(["z"], judged, 3)).toBe(0);
    expect(jensenShannon([1, 0], [1, 0])).toBe(0);
  });
});

describe("targets, committees and exposure per unit of merit", () => {
  // Two proposals; f = {a, c, e}, m = {b, d, g}. Ranks weigh 1/log2(r + 1): 1, 0.6309, 0.5, 0.4307.
  const input = {
    lists: new Map([
      [
        "s",
        new Map([
          ["p1", ["a", "b", "c", "d"]],
          ["p2", ["b", "a", "d", "c"]],
        ]),
      ],
    ]),
    attributes: new Map([
      [
        "gender",
        new Map([
          ["a", "f"],
          ["c", "f"],
          ["e", "f"],
          ["b", "m"],
          ["d", "m"],
          ["g", "m"],
        ]),
      ],
    ]),
    committees: new Map([
      ["p1", ["a", "d"]],
      ["p2", ["a", "b", "g", "e"]],
    ]),
    targets: new Map([["gender", new Map([["f", 0.4]])]]),
    ks: [2],
    minGroup: 1,
    bootstrap: { B: 200 },
  };
  const w = (r: number) => 1 / Math.log2(r + 1);

  it("shows the committees' share of each group and the analyst's target beside the pool", () => {
    const { f, m } = fairnessReport(input).s.attributes.gender.groups;
    // p1: a of {a, d} is f (1/2); p2: a, e of 4 are f (1/2); p2's g and e are outside the lists.
    expect(f.figures.committees.value).toBeCloseTo(0.5, 12);
    expect(m.figures.committees.value).toBeCloseTo(0.5, 12);
    expect(f.target).toBe(0.4);
    expect(m.target).toBeUndefined();
    expect(f.poolShare).toBeCloseTo(0.5, 12);
  });

  it("divides each group's exposure by its merit (committee members in the list), and by the rest's", () => {
    const { f, m } = fairnessReport(input).s.attributes.gender.groups;
    // f's exposure: p1 a (1) + c (w3); p2 a (w2) + c (w4); merit: a in both committees = 2.
    const fPerMerit = (1 + w(3) + w(2) + w(4)) / 2;
    // m's: p1 b (w2) + d (w4); p2 b (1) + d (w3); merit: d in p1, b in p2 = 2.
    const mPerMerit = (w(2) + w(4) + 1 + w(3)) / 2;
    expect(f.figures.exposurePerMerit.value).toBeCloseTo(fPerMerit, 12);
    expect(m.figures.exposurePerMerit.value).toBeCloseTo(mPerMerit, 12);
    expect(f.figures.exposurePerMeritRatio.value).toBeCloseTo(fPerMerit / mPerMerit, 12);
    expect(f.figures.exposurePerMeritRatio.ci).not.toBeNull();
  });

  it("gives no exposure per merit to a group with no merit in the lists", () => {
    const report = fairnessReport({ ...input, committees: new Map([["p1", ["b"]]]) });
    const { f, m } = report.s.attributes.gender.groups;
    expect(f.figures.exposurePerMerit.value).toBeNull();
    expect(m.figures.exposurePerMerit.value).toBeCloseTo(w(2) + w(4) + 1 + w(3), 12);
    expect(m.figures.exposurePerMeritRatio.value).toBeNull();
  });

  it("takes the relevance grade as the merit when grades are given", () => {
    const merit = new Map([
      [
        "p1",
        new Map([
          ["a", 2],
          ["b", 1],
          ["c", -1],
        ]),
      ],
    ]);
    const { f, m } = fairnessReport({ ...input, merit }).s.attributes.gender.groups;
    // A negative grade counts as no merit, as trec_eval reads it; p2 has no graded candidate.
    expect(f.figures.exposurePerMerit.value).toBeCloseTo((1 + w(3) + w(2) + w(4)) / 2, 12);
    expect(m.figures.exposurePerMerit.value).toBeCloseTo(w(2) + w(4) + 1 + w(3), 12);
  });
});

describe("the bootstrap over sparse rows", () => {
  // The report sums each figure over proposals row by row, eight resamples at a time; a mean per column
  // over the proposals, resample by resample (as the report did before), must give the very same numbers.
  const { lists, attributes } = load();
  const gold = rows("gold.csv");
  const committees = new Map<string, string[]>();
  for (const r of gold) committees.set(r.proposal, [...(committees.get(r.proposal) ?? []), r.candidate]);
  committees.delete([...committees.keys()][0]); // a proposal without a committee: its share is undefined
  const bootstrap = { B: 203, seed: "rows" }; // not a multiple of the eight resamples per pass
  const report = fairnessReport({ lists, attributes, committees, ks: [10, 20], bootstrap });

  function perColumn(values: (number | null)[]) {
    const mean = (counts: Uint32Array | null) => {
      let sum = 0;
      let weight = 0;
      values.forEach((v, i) => {
        const w = counts ? counts[i] : 1;
        if (w === 0 || v === null) return;
        sum += w * v;
        weight += w;
      });
      return weight > 0 ? sum / weight : null;
    };
    return { value: mean(null), ci: bootstrapStatistics(values.length, (c) => [mean(c)], 1, bootstrap)[0] };
  }

  it("gives each mean and interval exactly as a mean per column over the proposals", () => {
    const country = attributes.get("country")!;
    const group = [...new Set(country.values())].find(
      (g) => report.citation.attributes.country.groups[g]?.figures.rND,
    )!;
    const proposals = [...lists.get("citation")!];
    const inGroup = (order: readonly string[]) => order.map((c) => country.get(c) === group);
    const columns: Record<string, (number | null)[]> = {
      "share@20": proposals.map(([, order]) => shareAt(inGroup(order), 20)),
      meanExposure: proposals.map(([, order]) => meanExposure(inGroup(order))),
      rKL: proposals.map(([, order]) => rankFairness("rKL", inGroup(order))),
      committees: proposals.map(([p]) => {
        const members = committees.get(p);
        return members?.length
          ? members.filter((c) => country.get(c) === group).length / members.length
          : null;
      }),
    };
    for (const [measure, values] of Object.entries(columns)) {
      const figure = report.citation.attributes.country.groups[group].figures[measure];
      expect({ value: figure.value, ci: figure.ci }, measure).toEqual(perColumn(values));
    }
  });

  it("gives the same report on two threads, one system each, as on one", async () => {
    const input = { lists, attributes, committees, ks: [10], bootstrap: { B: 40 } };
    expect(JSON.stringify(await fairnessReportOnThreads(input, 2))).toBe(
      JSON.stringify(fairnessReport(input)),
    );
  });
});
