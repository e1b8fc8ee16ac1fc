import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRng } from "../lib/random";
import { evaluateQueries, summarize } from "../eval/evaluate";
import { evaluateRunFile } from "./evaluate-files";
import { parseMeasures } from "../eval/measures";
import { parseQrelsBytes, parseRun, runQueries } from "../eval/trec";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-evalfiles-"));
const runFile = path.join(dir, "run.txt");
const qrelsFile = path.join(dir, "qrels.txt");
// The same judgements in other orders: reversed (no split possible), and with the split query's
// lines on both sides of where a split would fall.
const reversedQrels = path.join(dir, "qrels-reversed.txt");
const straddlingQrels = path.join(dir, "qrels-straddling.txt");
// The run's queries grouped but not in qid order.
const shuffledRun = path.join(dir, "run-shuffled.txt");

beforeAll(() => {
  const rng = createRng("evaluate-files");
  const run: string[] = [];
  const qrels: string[] = [];
  for (let q = 0; q < 300; q++) {
    const qid = `q${String(q).padStart(3, "0")}`;
    for (let r = 1; r <= 40; r++) run.push(`${qid} Q0 d${rng.int(500)}-${r} ${r} ${(1 / r).toFixed(5)} s`);
    // Some queries only in the qrels, so complete mode has lists to fill in.
    const judged = new Set<string>();
    for (let j = 0; j < 8; j++) judged.add(`d${rng.int(500)}-${1 + rng.int(40)}`);
    for (const doc of judged) qrels.push(`${qid} 0 ${doc} ${rng.int(4)}`);
  }
  for (let q = 300; q < 320; q++) qrels.push(`q${q} 0 dx 2`);
  fs.writeFileSync(runFile, run.join("\n") + "\n");
  const lists = Array.from({ length: 300 }, (_, q) => run.slice(q * 40, (q + 1) * 40));
  for (let i = lists.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [lists[i], lists[j]] = [lists[j], lists[i]];
  }
  fs.writeFileSync(shuffledRun, lists.flat().join("\n") + "\n");
  fs.writeFileSync(qrelsFile, qrels.join("\n") + "\n");
  fs.writeFileSync(reversedQrels, [...qrels].reverse().join("\n") + "\n");
  // Every query's first judgement moved to the end.
  const firsts = qrels.filter((line, i) => i === 0 || line.split(" ")[0] !== qrels[i - 1].split(" ")[0]);
  fs.writeFileSync(
    straddlingQrels,
    [...qrels.filter((l) => !firsts.includes(l)), ...firsts].join("\n") + "\n",
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("evaluateRunFile", () => {
  const wholeParse = (complete: boolean) => {
    const queries = runQueries(
      parseRun(fs.readFileSync(runFile)),
      parseQrelsBytes(fs.readFileSync(qrelsFile)),
      { complete },
    );
    return summarize(evaluateQueries(queries, measures), { perQuery: true });
  };

  const measures = parseMeasures(["nDCG@10", "AP", "RR", "Rank(g=1)", "HLU(a=5)"]);
  it.each([false, true])(
    "gives the same numbers on two threads as on one (complete: %s)",
    async (complete) => {
      const one = summarize(await evaluateRunFile(qrelsFile, runFile, measures, { threads: 1, complete }), {
        perQuery: true,
      });
      const two = summarize(
        await evaluateRunFile(qrelsFile, runFile, measures, { threads: 2, complete, parallelBytes: 0 }),
        { perQuery: true },
      );
      expect(two).toEqual(one);
      expect(one).toEqual(wholeParse(complete));
      expect(one.queries).toBe(complete ? 320 : 300);
    },
  );

  it.each([1, 2])("puts the lists of a run not in qid order in qid order (%i threads)", async (threads) => {
    const shuffled = summarize(
      await evaluateRunFile(qrelsFile, shuffledRun, measures, { threads, parallelBytes: 0 }),
      { perQuery: true },
    );
    expect(Object.keys(shuffled.perQuery)).toEqual([...Object.keys(shuffled.perQuery)].sort());
    expect(shuffled).toEqual(wholeParse(false));
  });

  it.each([reversedQrels, straddlingQrels])(
    "gives the same numbers whatever the order of the qrels (%s)",
    async (file) => {
      const one = summarize(await evaluateRunFile(qrelsFile, runFile, measures, { threads: 1 }), {
        perQuery: true,
      });
      const two = summarize(
        await evaluateRunFile(file, runFile, measures, { threads: 2, parallelBytes: 0 }),
        { perQuery: true },
      );
      expect(two).toEqual(one);
    },
  );
});
