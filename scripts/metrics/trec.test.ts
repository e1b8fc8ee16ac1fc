import fs from "node:fs";
import path from "node:path";
import { parseMeasures } from "./measures";
import { evaluateQueries, summarize } from "./evaluate";
import { parseQrels, parseRun, runQueries } from "./trec";

// Reference values: trec_eval 9.0.8 on shared/reference/trec-small, printed to 4 decimals (copied to fixtures/trec-small).
const dir = path.join(__dirname, "../../test/fixtures/trec-small");
const read = (f: string) => fs.readFileSync(path.join(dir, f));
const expected = JSON.parse(read("expected.json").toString()) as Record<string, { aggregate: Record<string, number>; perQuery: Record<string, Record<string, number>> }>;

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
    for (const [name, value] of Object.entries(expected[mode].aggregate)) expect(result.aggregate[name], name).toBeCloseTo(value, 4);
  });
  it("matches every per-query value within 5e-5", () => {
    for (const [qid, values] of Object.entries(expected[mode].perQuery)) {
      for (const [name, value] of Object.entries(values)) expect(Math.abs(result.perQuery[qid][name]! - value), `${qid} ${name}`).toBeLessThan(5e-5 + 1e-12);
    }
  });
});
