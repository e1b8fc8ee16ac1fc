import {
  parseProtocolValue,
  ProtocolError,
  splitCommittee,
  splitCommittees,
  splitLines,
  type ProtocolSpec,
} from "./protocol";
import { offlineReport, type OfflineInput } from "./report";
import { resultRows } from "../results/rows";

const committee = (n: number, prefix = "c") => new Set(Array.from({ length: n }, (_, i) => `${prefix}${i}`));
const gold = new Map<string, Set<string>>([
  ["p1", committee(1)],
  ["p2", committee(3)],
  ["p3", committee(6)],
  ["p4", committee(12)],
]);
const given2: ProtocolSpec = { protocol: "given-2", seed: "7" };

describe("protocol split", () => {
  it("given-2 gives 2 members and measures the rest; committees under 3 are dropped and listed", () => {
    const split = splitCommittees(gold, given2, 1);
    expect(split.dropped).toEqual([{ proposal: "p1", members: 1 }]);
    expect(split.cases.map((c) => c.proposal)).toEqual(["p2", "p3", "p4"]);
    for (const c of split.cases) {
      expect(c.given).toHaveLength(2);
      expect(new Set([...c.given, ...c.measured])).toEqual(gold.get(c.proposal));
      expect(c.measured.length).toBe(gold.get(c.proposal)!.size - 2);
    }
  });

  it("all-but-1 measures exactly one held-out member, given-10 needs 11 members", () => {
    const all = splitCommittees(gold, { protocol: "all-but-1", seed: "s" });
    expect(all.cases.every((c) => c.measured.length === 1)).toBe(true);
    expect(all.dropped.map((d) => d.proposal)).toEqual(["p1"]);
    const ten = splitCommittees(gold, { protocol: "given-10", seed: "s" });
    expect(ten.cases.map((c) => c.proposal)).toEqual(["p4"]);
    expect(ten.dropped).toHaveLength(3);
  });

  it("is the same for a seed, fold and proposal whatever else is split; folds differ", () => {
    const alone = splitCommittee(given2, 1, "p4", gold.get("p4")!);
    const withOthers = splitCommittees(gold, given2, 3).cases.filter((c) => c.proposal === "p4");
    expect(withOthers[0]).toMatchObject(alone!);
    expect(new Set(withOthers.map((c) => c.given.join(","))).size).toBeGreaterThan(1);
    expect(splitCommittee({ ...given2, seed: "8" }, 1, "p4", gold.get("p4")!)).not.toEqual(alone);
  });

  it("refuses a protocol no committee is large enough for, naming the largest", () => {
    const small = new Map([["p", committee(4)]]);
    expect(() => splitCommittees(small, { protocol: "given-5", seed: "1" })).toThrow(
      "given-5 needs committees of at least 6 members; the largest has 4",
    );
    expect(() => splitCommittees(gold, given2, 0)).toThrow(ProtocolError);
  });

  it("writes a JSON line per proposal and fold, with the protocol value the lists import takes", () => {
    const { inputs, measurement } = splitLines(splitCommittees(gold, given2, 2));
    expect(inputs).toHaveLength(6);
    const first = JSON.parse(inputs[0]);
    expect(first).toMatchObject({ proposal: "p2", variant: "fold-1", protocol: "given-2:7" });
    expect(JSON.parse(measurement[0]).measured).toHaveLength(1);
  });

  it("reads a protocol value and names what is wrong with a bad one", () => {
    expect(parseProtocolValue("all-but-1:assay")).toEqual({ protocol: "all-but-1", seed: "assay" });
    expect(() => parseProtocolValue("given-3:1")).toThrow(/not one of given-2, given-5, given-10, all-but-1/);
    expect(() => parseProtocolValue("given-2")).toThrow(/names no seed/);
  });
});

describe("the offline report under a protocol", () => {
  const split = splitCommittee(given2, 1, "p3", gold.get("p3")!)!;
  const [g0, g1] = split.given;
  const [m0] = split.measured;
  const input: OfflineInput = {
    proposals: ["p1", "p2", "p3", "p4"].map((id) => ({ id, subject: null })),
    gold,
    systems: [
      {
        key: "sys",
        name: "System",
        protocol: "given-2:7",
        lists: new Map([
          ["p1", new Map([["fold-1", ["c0", "x"]]])],
          // A given member returned at rank 1 and 3: removed, ranks closed up, m0 moves to rank 2.
          ["p3", new Map([["fold-1", [g0, "x", g1, m0, "y"]]])],
        ]),
      },
    ],
    catalog: new Set([...gold.values()].flatMap((s) => [...s]).concat(["x", "y"])),
  };
  const report = offlineReport(input, { ks: [1, 2, 10], B: 50, seed: 1 });
  const sys = report.systems[0];

  it("measures the list against the measurement set only, the given members removed and counted", () => {
    expect(sys.proposals).toBe(1);
    expect(sys.overall.measures["Success@1"].value).toBe(0);
    expect(sys.overall.measures["Success@2"].value).toBe(1);
    expect(sys.overall.measures["RR@2"].value).toBe(0.5);
    // PoolRecall: 1 of the 4 measured members.
    expect(sys.overall.measures.PoolRecall.value).toBe(0.25);
    expect(sys.protocol).toMatchObject({
      protocol: "given-2",
      seed: "7",
      folds: [1],
      dropped: [{ proposal: "p1", members: 1 }],
      givenReturned: {
        lists: 1,
        slots: 2,
        examples: [{ proposal: "p3", variant: "fold-1", candidates: [g0, g1] }],
      },
    });
  });

  it("gives each fold's figures and their spread", () => {
    expect(sys.protocol!.perFold).toEqual([
      expect.objectContaining({ fold: 1, proposals: 1, measures: expect.objectContaining({ "RR@10": 0.5 }) }),
    ]);
    expect(sys.protocol!.spread["RR@10"]).toEqual({ mean: 0.5, sd: null, min: 0.5, max: 0.5 });
  });

  it("puts each fold's figures, the spread and the counts in the every-figure rows (snapshot CSV)", () => {
    const rows = resultRows("offline", report).filter((r) => r.group.startsWith("given-2"));
    expect(rows).toContainEqual({
      system: "sys",
      group: "given-2 fold-1",
      measure: "RR@10",
      value: 0.5,
      lower: null,
      upper: null,
    });
    expect(rows).toContainEqual({
      system: "sys",
      group: "given-2 folds",
      measure: "RR@10",
      value: 0.5,
      lower: 0.5,
      upper: 0.5,
    });
    expect(rows).toContainEqual({
      system: "sys",
      group: "given-2",
      measure: "GivenReturnedSlots",
      value: 2,
      lower: null,
      upper: null,
    });
  });
});
