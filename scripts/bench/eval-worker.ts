import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { summarize } from "../eval/evaluate";
import { evaluateRunFile } from "../io/evaluate-files";
import { parseMeasures } from "../eval/measures";
import { lineStartFrom } from "../io/read-range";
import { runWorker } from "../workers/run-worker";
import { trecEvalFiles } from "../io/trec-eval-files";

// One measurement per process, so its peak memory is its own: `floor`, `eval`, `eval-1-thread` or
// `trec_eval` (assay trec_eval's streamed reader, one thread, the same measures by trec_eval's names).
const [mode, qrelsFile, runFile] = process.argv.slice(2);
const start = performance.now();
let detail = "";
if (mode === "floor") {
  // The floor no evaluator can beat on this machine: the run read and split into fields on the
  // same two threads `eval` uses, each reading half of it in the same pieces.
  const size = fs.statSync(runFile).size;
  const middle = lineStartFrom(runFile, size >> 1);
  const halves = [
    [0, middle],
    [middle, size],
  ];
  const counts = await Promise.all(
    halves.map(([start, end]) =>
      runWorker<number>(new URL("./floor-thread.ts", import.meta.url), { file: runFile, start, end }),
    ),
  );
  detail = `${counts[0] + counts[1]} field ends`;
} else if (mode === "trec_eval") {
  const output = trecEvalFiles(qrelsFile, runFile, { measures: ["ndcg_cut.10", "map", "recip_rank"] })!;
  detail = output.trim().split("\n").join(", ").replace(/\s+/g, " ");
} else {
  const evaluation = await evaluateRunFile(qrelsFile, runFile, parseMeasures(["nDCG@10", "AP", "RR"]), {
    threads: mode === "eval-1-thread" ? 1 : 2,
  });
  const summary = summarize(evaluation);
  detail = `${summary.queries} queries, nDCG@10 ${summary.aggregate["nDCG@10"]!.toFixed(4)}, AP ${summary.aggregate.AP!.toFixed(4)}`;
}
const seconds = (performance.now() - start) / 1000;
// Every thread's CPU time: `eval` runs on two, so its wall time alone flatters it against one thread.
const cpu = process.cpuUsage();
detail += `; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`;
console.log(
  JSON.stringify({ mode, seconds, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), detail }),
);
