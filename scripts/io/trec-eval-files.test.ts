import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseTrecEvalArgs } from "../trec-eval/args";
import { trecEval, type TrecEvalOptions } from "../trec-eval/engine";
import { trecEvalFiles } from "./trec-eval-files";

/**
 * The streamed trec_eval mode prints what the text reader prints, which prints what trec_eval printed
 * (test/fixtures/trec_eval-suite and trec-small-trec_eval10, trec_eval's own outputs); and it leaves
 * the files only the text reader reads as trec_eval does to it (null).
 */
const root = path.resolve(__dirname, "../..");
const suite = path.join(root, "test/fixtures/trec_eval-suite");
const small = path.join(root, "test/fixtures/trec-small");
const small10 = path.join(root, "test/fixtures/trec-small-trec_eval10");
const read = (file: string) => fs.readFileSync(file, "utf8");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-trec-eval-files-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Both readers on the same files; pieces of 1 KiB, so that lists run across pieces. */
function bothWays(qrelsFile: string, runFile: string, options: TrecEvalOptions) {
  return {
    streamed: trecEvalFiles(qrelsFile, runFile, options, undefined, 1024),
    text: trecEval(read(qrelsFile), read(runFile), options),
  };
}

describe("trec_eval mode streamed", () => {
  it.each([
    ["out.test", "qrels.test results.test"],
    ["out.test.aq", "-m all_trec -q qrels.test results.test"],
    ["out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"],
    ["out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"],
    ["out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"],
    ["out10.test.aqc", "--v10 -m all_trec -q -c qrels.test results.trunc"],
  ])("prints trec_eval's %s byte for byte", (expected, commandLine) => {
    const { options, qrels, run } = parseTrecEvalArgs(commandLine.split(" "));
    expect(trecEvalFiles(path.join(suite, qrels), path.join(suite, run), options, undefined, 1024)).toBe(
      read(path.join(suite, expected)),
    );
  });

  it.each([
    ["all_trec.qc.txt", "--v10 -m all_trec -q -c"],
    ["all_trec.qcJM20.txt", "--v10 -m all_trec -q -c -J -M20"],
  ])("prints trec_eval 10.0's %s on trec-small byte for byte", (expected, flags) => {
    const { options } = parseTrecEvalArgs([...flags.split(" "), "q", "r"]);
    const output = trecEvalFiles(path.join(small, "qrels.txt"), path.join(small, "run.txt"), options);
    expect(output).toBe(read(path.join(small10, expected)));
  });

  it("prints queries in byte order and sums them in that order, whatever order the run lists them in", () => {
    // 10 before 9 in byte order; scores equal as floats (9.0.8) tie and go by docid, descending.
    const qrels = write("order.qrels", "9 0 a 1\n9 0 b 2\n10 0 a 1\n10 0 c 0\n2 0 z 1\n");
    const run = write(
      "order.run",
      [
        "9 Q0 a 1 0.30000001 r1",
        "9 Q0 b 2 0.3 r1",
        "9 Q0 c 3 0.1 r1",
        "10 Q0 c 1 2 r1",
        "10 Q0 a 2 1 r1",
        "11 Q0 a 1 1 r2",
        "",
      ].join("\n"),
    );
    const options = { perQuery: true, measures: ["map", "P.1", "runid", "relstring"] };
    const { streamed, text } = bothWays(qrels, run, options);
    expect(streamed).toBe(text);
    expect(streamed!.split("\n").filter((l) => l.startsWith("map"))).toEqual([
      "map                   \t10\t0.5000",
      "map                   \t9\t1.0000",
      "map                   \tall\t0.7500",
    ]);
    expect(streamed).toContain("runid                 \tall\tr2\n");
    expect(streamed).toContain("relstring             \t9\t'21-'\n");
  });

  it("with 10.0's -c, a judged query the run lacks is evaluated as an empty list", () => {
    const qrels = write("complete.qrels", "1 0 a 1\n2 0 b 1\n");
    const run = write("complete.run", "1 Q0 a 1 1 r\n");
    const { streamed, text } = bothWays(qrels, run, { v10: true, complete: true, perQuery: true });
    expect(streamed).toBe(text);
    expect(streamed).toContain("map                   \t2\t0.0000\n");
  });

  it("reads a run whose queries are not grouped whole, in typed arrays", () => {
    const qrels = write("ungrouped.qrels", "1 0 a 1\n1 0 c 2\n2 0 b 1\n");
    const run = write("ungrouped.run", "1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n1 Q0 c 2 0.5 r\n");
    const { streamed, text } = bothWays(qrels, run, { perQuery: true, maxRetrieved: 1, measures: ["ndcg"] });
    expect(streamed).toBe(text);
    expect(streamed).toContain("ndcg                  \t1\t");
  });

  it.each([
    ["a score C reads otherwise (atof: 0)", "1 Q0 a 1 0x10 r\n1 Q0 b 2 1 r\n", "1 0 a 1\n"],
    ["a label C reads otherwise (atol: 1)", "1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n", "1 0 a 1e1\n1 0 b 1\n"],
    ["a docid listed twice below -M", "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n1 Q0 b 3 0 r\n", "1 0 a 1\n"],
  ])("leaves %s to the text reader", (_, runText, qrelsText) => {
    const qrels = write("odd.qrels", qrelsText);
    const run = write("odd.run", runText);
    const options = { maxRetrieved: 2, perQuery: true };
    expect(trecEvalFiles(qrels, run, options)).toBeNull();
    // What the text reader prints instead: the queries the fast reader would have got wrong.
    expect(trecEval(qrelsText, runText, options)).toMatch(/^num_ret\s+\t1\t2\n/);
  });
});
