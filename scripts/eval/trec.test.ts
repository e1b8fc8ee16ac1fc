import fs from "node:fs";
import path from "node:path";
import { parseMeasures } from "./measures";
import { evaluateQueries, summarize } from "./evaluate";
import { createRng } from "../lib/random";
import { parseQrels, parseQrelsBytes, parseRun, qrelsToMap, runLists, runQueries } from "./trec";

// Reference values: trec_eval 9.0.8 on shared/reference/trec-small, printed to 4 decimals (copied to fixtures/trec-small).
const dir = path.join(__dirname, "../../test/fixtures/trec-small");
const read = (f: string) => fs.readFileSync(path.join(dir, f));
const expected = JSON.parse(read("expected.json").toString()) as Record<
  string,
  { aggregate: Record<string, number>; perQuery: Record<string, Record<string, number>> }
>;

function run(mode: "default" | "complete" | "rel2") {
  const qrels = parseQrels(read("qrels.txt").toString());
  const parsed = parseRun(read("run.txt"));
  const names = Object.keys(expected[mode].aggregate);
  const queries = runQueries(parsed, qrels, { complete: mode === "complete" });
  return summarize(evaluateQueries(queries, parseMeasures(names)), { perQuery: true });
}

describe.each(["default", "complete", "rel2"] as const)("trec-small, %s mode, against trec_eval", (mode) => {
  const result = run(mode);
  it("matches every aggregate within 5e-5", () => {
    for (const [name, value] of Object.entries(expected[mode].aggregate))
      expect(result.aggregate[name], name).toBeCloseTo(value, 4);
  });
  it("matches every per-query value within 5e-5", () => {
    for (const [qid, values] of Object.entries(expected[mode].perQuery)) {
      for (const [name, value] of Object.entries(values))
        expect(Math.abs(result.perQuery[qid][name]! - value), `${qid} ${name}`).toBeLessThan(5e-5 + 1e-12);
    }
  });
});

describe("trec-small: half-life utility both ways, against an independent computation", () => {
  // hlu-expected.json comes from hlu.py beside it (Python, no Assay code); trec_eval has no HLU.
  const hlu = JSON.parse(read("hlu-expected.json").toString()) as {
    default: { aggregate: Record<string, number>; queriesWithValue: number };
  };
  const qrels = parseQrels(read("qrels.txt").toString());
  const queries = runQueries(parseRun(read("run.txt")), qrels, { complete: false });
  const result = summarize(evaluateQueries(queries, parseMeasures(["HLU", "HLU-ratio"])));

  it("HLU is the mean of per-query normalised utilities (15.75), HLU-ratio the ratio of sums (20.41)", () => {
    expect(result.aggregate["HLU(a=5)"]).toBeCloseTo(hlu.default.aggregate["HLU(a=5)"], 10);
    expect(result.aggregate["HLU-ratio(a=5)"]).toBeCloseTo(hlu.default.aggregate["HLU-ratio(a=5)"], 10);
    expect(result.aggregate["HLU(a=5)"]!.toFixed(2)).toBe("15.75");
    expect(result.aggregate["HLU-ratio(a=5)"]!.toFixed(2)).toBe("20.41");
  });

  it("HLU leaves out the queries with no relevant item, and says how many", () => {
    expect(result.queries - result.missing["HLU(a=5)"].count).toBe(hlu.default.queriesWithValue);
  });
});

describe("TREC lines however spaced", () => {
  // The usual line (one space between fields) takes a fast path; anything else the general reader.
  const rng = createRng("trec-spacing");
  const fields = Array.from({ length: 400 }, (_, i) => [
    `q${i % 7}`,
    "Q0",
    `d${rng.int(1000)}-${i}`,
    String(i),
    (rng.int(2000) / 1000 - 1).toExponential(rng.int(4)),
    "tag",
  ]);
  const judged = fields.map(([q, , d], i) => [q, "0", d, String(i % 4)]);
  const spaced = (row: string[], i: number) =>
    i % 3 === 0 ? row.join("\t") : i % 3 === 1 ? `  ${row.join("   ")} \r` : row.join(" ");
  const usual = (rows: string[][]) => rows.map((row) => row.join(" ")).join("\n");
  const mixed = (rows: string[][]) => rows.map(spaced).join("\n") + "\n\n";

  it("gives the same lists and scores", () => {
    const a = parseRun(Buffer.from(usual(fields)));
    const b = parseRun(Buffer.from(mixed(fields)));
    expect(runLists(b)).toEqual(runLists(a));
    expect(Array.from(b.order, (e) => b.score[e])).toEqual(Array.from(a.order, (e) => a.score[e]));
    expect(Array.from(a.order, (e) => a.score[e]).slice(0, 3)).toEqual(
      fields
        .filter((f) => f[0] === "q0")
        .map((f) => Number(f[4]))
        .sort((x, y) => y - x)
        .slice(0, 3),
    );
  });

  it("gives the same judgements", () => {
    expect(qrelsToMap(parseQrelsBytes(Buffer.from(mixed(judged))))).toEqual(
      qrelsToMap(parseQrelsBytes(Buffer.from(usual(judged)))),
    );
  });
});
