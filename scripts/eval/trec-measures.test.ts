import { readFileSync } from "node:fs";
import path from "node:path";
import { aggregateColumn, evaluateQueries, summarize, type QueryInput } from "./evaluate";
import { evaluateRunFile } from "../io/evaluate-files";
import { parseMeasure, parseMeasures, type MeasureDefaults } from "./measures";

/** One query: ranked labels 2, unjudged, 0, 1, 3; judged 3, 2, 1, 1, 0, 0 (a relevant 1 not retrieved). */
const query: QueryInput = {
  qid: "q",
  ranked: Float64Array.from([2, NaN, 0, 1, 3]),
  judged: Float64Array.from([3, 2, 1, 1, 0, 0]),
};
const value = (name: string, queries: QueryInput[] = [query]) =>
  summarize(evaluateQueries(queries, [parseMeasure(name)])).aggregate[parseMeasure(name).name];

describe("hand-worked values of the measures trec_eval and ir_measures add", () => {
  it("ERR@5 with gdeval's stopping probabilities (2^g − 1) / 16", () => {
    const r = (g: number) => (2 ** g - 1) / 16;
    const expected = r(2) + (1 / 4) * (1 - r(2)) * r(1) + (1 / 5) * (1 - r(2)) * (1 - r(1)) * r(3);
    expect(value("ERR@5")).toBeCloseTo(expected, 12);
    expect(value("ERR@5")).toBeCloseTo(0.266845703125, 12);
    expect(value("ERR@1")).toBeCloseTo(3 / 16, 12);
  });

  it("RBP: binary at rel, graded by the highest label otherwise", () => {
    expect(value("RBP(p=0.8,rel=1)")).toBeCloseTo(0.2 * (1 + 0.8 ** 3 + 0.8 ** 4), 12);
    expect(value("RBP(p=0.8,rel=1)@3")).toBeCloseTo(0.2, 12);
    expect(value("RBP(p=0.5)")).toBeCloseTo(0.5 * (2 / 3 + (1 / 3) * 0.5 ** 3 + 1 * 0.5 ** 4), 12);
  });

  it("SetP, SetR, SetF and SetAP over the whole list", () => {
    expect(value("SetP")).toBeCloseTo(3 / 5, 12);
    expect(value("SetR")).toBeCloseTo(3 / 4, 12);
    expect(value("SetF")).toBeCloseTo((2 * 0.6 * 0.75) / (0.6 + 0.75), 12);
    expect(value("SetF(beta=0.5)")).toBeCloseTo((1.5 * 0.6 * 0.75) / (0.5 * 0.6 + 0.75), 12);
    expect(value("SetAP")).toBeCloseTo(0.6 * 0.75, 12);
    expect(value("SetRelP")).toBeCloseTo(3 / 4, 12);
  });

  it("nDCG with gains: labels mapped, the ideal ranked by gain", () => {
    const dcg = 3 + 1 / Math.log2(5) + 7 / Math.log2(6);
    const idcg = 7 + 3 / Math.log2(3) + 1 / 2 + 1 / Math.log2(5);
    expect(value("nDCG(gains={0:0,1:1,2:3,3:7})@5")).toBeCloseTo(dcg / idcg, 12);
    expect(value("ndcg.1=1,2=3,3=7")).toBeCloseTo(dcg / idcg, 12);
  });

  it("IPrec, Rprec, counts", () => {
    // Recall 0.5 is the 2nd of 4 relevant (rank 4, P = 0.5); interpolated: the best later precision, 3/5.
    expect(value("IPrec@0.5")).toBeCloseTo(0.6, 12);
    expect(value("Rprec")).toBeCloseTo(2 / 4, 12);
    expect(value("NumRet")).toBe(5);
    expect(value("NumRet(rel=1)")).toBe(3);
    expect(value("NumRelRet(rel=3)")).toBe(1);
    expect(value("NumRel")).toBe(4);
    expect(value("NumQ", [query, { ...query, qid: "r" }])).toBe(2);
  });

  it("judged_only drops the unjudged item before ranking; depth keeps the top of the list", () => {
    expect(value("AP(judged_only=true)")).toBeCloseTo((1 + 2 / 3 + 3 / 4) / 4, 12);
    expect(value("AP")).toBeCloseTo((1 + 2 / 4 + 3 / 5) / 4, 12);
    expect(value("P(depth=2)@5")).toBeCloseTo(1 / 5, 12);
  });

  it("negative labels are pooled but unjudged: bpref skips them, infAP counts them as trec_eval 9.0.8 does", () => {
    // Retrieved: relevant, pooled-unjudged (−1), not pooled, non-relevant, relevant; one relevant not retrieved.
    const pooled: QueryInput = {
      qid: "n",
      ranked: Float64Array.from([1, -1, NaN, 0, 1]),
      judged: Float64Array.from([1, 1, 1, 0, 0, -1]),
    };
    expect(value("Bpref", [pooled])).toBeCloseTo(0.5, 12);
    expect(value("infAP", [pooled])).toBeCloseTo(
      (1 + (1 / 5 + (4 / 5) * (3 / 4) * (1.00001 / 2.00002))) / 3,
      12,
    );
    expect(value("num_nonrel_judged_ret", [pooled])).toBe(1);
    expect(value("AP(judged_only=true)", [pooled])).toBeCloseTo((1 + 2 / 3) / 3, 12);
  });

  it("gm_map is a geometric mean with trec_eval's floor of 0.00001", () => {
    const zero: QueryInput = { qid: "z", ranked: Float64Array.from([0]), judged: Float64Array.from([1, 0]) };
    const half: QueryInput = {
      qid: "h",
      ranked: Float64Array.from([0, 1]),
      judged: Float64Array.from([1, 0]),
    };
    const evaluation = evaluateQueries([half, zero], parseMeasures(["gm_map"]));
    expect(aggregateColumn(evaluation.columns[0])).toBeCloseTo(Math.sqrt(0.5 * 0.00001), 12);
  });
});

describe("assay eval's measures against trec_eval 10.0 on trec-small (complete mode)", () => {
  const root = path.resolve(__dirname, "../..");
  const small = path.join(root, "test/fixtures/trec-small");
  const expected = path.join(root, "test/fixtures/trec-small-trec_eval10");

  it.each<[string, MeasureDefaults]>([
    ["all_trec.qc.txt", {}],
    ["all_trec.qcl2.txt", { rel: 2 }],
    ["all_trec.qcJM20.txt", { judgedOnly: true, depth: 20 }],
  ])(
    "every all_trec value of %s, per query and overall, within trec_eval's printed precision",
    async (file, defaults) => {
      const measures = parseMeasures(["all_trec"], defaults);
      const summary = summarize(
        await evaluateRunFile(path.join(small, "qrels.txt"), path.join(small, "run.txt"), measures, {
          complete: true,
        }),
        { perQuery: true },
      );
      let compared = 0;
      for (const line of readFileSync(path.join(expected, file), "utf8").trim().split("\n")) {
        const [name, qid, printed] = line.split("\t").map((s) => s.trim());
        // runid and relstring are no numbers; trec_eval prints 0/0 for lists -J leaves empty (Assay: 0);
        // with -c, trec_eval's num_rel total counts labels above 0 whatever -l says (Assay sums the queries').
        if (
          name === "runid" ||
          name === "relstring" ||
          printed === "-nan" ||
          (name === "num_rel" && qid === "all" && defaults.rel)
        )
          continue;
        const key = parseMeasure(name, defaults).name;
        const got = qid === "all" ? summary.aggregate[key] : summary.perQuery[qid][key];
        expect(
          Math.abs(got! - Number(printed)),
          `${name} ${qid}: ${got} against ${printed}`,
        ).toBeLessThanOrEqual(5.0001e-5 * Math.max(1, Math.abs(Number(printed))));
        compared++;
      }
      expect(compared).toBeGreaterThan(5000);
    },
  );
});

describe("assay eval -m with trec_eval's options", () => {
  it("takes trec_eval names with -l, -J and -M and prints ir_measures' names beside trec_eval's own", async () => {
    const { runAssay } = await import("../../test/run-cli");
    const small = path.resolve(__dirname, "../../test/fixtures/trec-small");
    const result = await runAssay([
      "eval",
      "--qrels",
      path.join(small, "qrels.txt"),
      "--run",
      path.join(small, "run.txt"),
      "-m",
      "P.5",
      "-m",
      "gm_map",
      "-l",
      "2",
      "-J",
      "-M",
      "20",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(Object.keys(json.aggregate)).toEqual([
      "P(depth=20,judged_only=true,rel=2)@5",
      "gm_map(depth=20,judged_only=true,rel=2)",
    ]);
  });
});

describe("run lines of more than six fields", () => {
  it("are read as trec_eval reads them, the extra fields ignored (trec_eval's results.trunc)", async () => {
    const suite = path.resolve(__dirname, "../../test/fixtures/trec_eval-suite");
    const summary = summarize(
      await evaluateRunFile(
        path.join(suite, "qrels.test"),
        path.join(suite, "results.trunc"),
        parseMeasures(["map", "num_ret"]),
        { complete: true },
      ),
    );
    // trec_eval 10.0 -c -m map -m num_ret: 0.1016 and 584.
    expect(summary.aggregate.AP).toBeCloseTo(0.1016, 4);
    expect(summary.aggregate.NumRet).toBe(584);
  });
});
