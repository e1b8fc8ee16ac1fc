import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRng } from "../lib/random";
import { evaluateQueries, summarize } from "../eval/evaluate";
import { parseMeasures } from "../eval/measures";
import { FormatError, parseQrelsBytes, parseRun, runQueries } from "../eval/trec";
import { evaluateRunRange } from "./trec-stream";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-trecstream-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const measures = parseMeasures(["nDCG@10", "AP", "RR", "Rank(g=1)", "HLU(a=5)", "P@5"]);

function write(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** A run with lists of 1 to 60 lines, tied scores, blank and CRLF lines, and no newline at its end. */
function sampleRun() {
  const rng = createRng("trec-stream");
  const lines: string[] = [];
  const qrels: string[] = [];
  for (let q = 0; q < 40; q++) {
    const qid = `q${q}`;
    const length = 1 + rng.int(60);
    for (let r = 0; r < length; r++)
      lines.push(
        `${qid} Q0 d${r * 7 + rng.int(5)}-${r} ${r + 1} ${(rng.int(20) / 10).toFixed(1)} tag${r % 3 === 0 ? "\r" : ""}`,
      );
    if (q % 9 === 0) lines.push("");
    // Every fifth query unjudged; the rest judge some listed candidates and some not.
    const judged = new Map<string, number>();
    if (q % 5 !== 4) for (let j = 0; j < 6; j++) judged.set(`d${j * 7 + rng.int(5)}-${j * 2}`, rng.int(4));
    for (const [doc, label] of judged) qrels.push(`${qid} 0 ${doc} ${label}`);
  }
  return { run: lines.join("\n"), qrels: qrels.join("\n") + "\n" };
}

describe("evaluateRunRange", () => {
  const { run, qrels } = sampleRun();
  const runFile = write("run.txt", run);
  const judgements = parseQrelsBytes(Buffer.from(qrels));
  const whole = summarize(evaluateQueries(runQueries(parseRun(Buffer.from(run)), judgements), measures), {
    perQuery: true,
  });

  it.each([8, 64, 100, 1000, 1 << 20])(
    "gives what parsing the whole run gives, read in pieces of %i bytes",
    (piece) => {
      const part = evaluateRunRange(runFile, 0, run.length, judgements, measures, piece)!;
      const streamed = summarize(part, { perQuery: true });
      // Lists come in file order, not qid order, so only the last bits of a mean may differ.
      expect(streamed.perQuery).toEqual(whole.perQuery);
      for (const [name, value] of Object.entries(whole.aggregate))
        expect(streamed.aggregate[name]).toBeCloseTo(value!, 12);
      expect(streamed.queries).toBe(32);
      expect(part.runQids).toEqual([
        ...new Set(
          run
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => l.split(" ")[0]),
        ),
      ]);
    },
  );

  it("returns null for a run whose queries are not grouped, for the caller to parse whole", () => {
    const file = write("interleaved.txt", "q1 Q0 a 1 0.9 s\nq2 Q0 b 1 0.9 s\nq1 Q0 c 2 0.8 s\n");
    expect(evaluateRunRange(file, 0, fs.statSync(file).size, judgements, measures, 8)).toBeNull();
  });

  it("names the line of a malformed entry, counted across pieces", () => {
    const lines = run.split("\n");
    lines[150] = "q99 Q0 broken";
    const file = write("broken.txt", lines.join("\n"));
    expect(() => evaluateRunRange(file, 0, fs.statSync(file).size, judgements, measures, 64)).toThrow(
      new FormatError(`${file} line 151: expected 6 fields "qid Q0 docid rank score tag", found 3`),
    );
  });

  it("rejects a candidate listed twice in one query", () => {
    const file = write("duplicate.txt", "q1 Q0 a 1 0.9 s\nq1 Q0 b 2 0.8 s\nq1 Q0 a 3 0.7 s\n");
    expect(() => evaluateRunRange(file, 0, fs.statSync(file).size, judgements, measures, 8)).toThrow(
      new FormatError(`${file}: a appears twice in the list of query q1`),
    );
  });
});
