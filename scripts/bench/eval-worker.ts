import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { summarize } from "../metrics/evaluate";
import { evaluateRunFile } from "../metrics/evaluate-files";
import { parseMeasures } from "../metrics/measures";

// One measurement per process, so its peak memory is its own: `floor` or `eval`.
const [mode, qrelsFile, runFile] = process.argv.slice(2);
const start = performance.now();
let detail = "";
if (mode === "floor") {
  // The floor no evaluator can beat: read the file and split it into lines and fields.
  const text = fs.readFileSync(runFile, "latin1");
  let fields = 0;
  let from = 0;
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", from)) {
    fields += text.slice(from, nl).split(" ").length;
    from = nl + 1;
  }
  detail = `${fields} fields`;
} else {
  const evaluation = await evaluateRunFile(qrelsFile, runFile, parseMeasures(["nDCG@10", "AP", "RR"]), { threads: mode === "eval-1-thread" ? 1 : 2 });
  const summary = summarize(evaluation);
  detail = `${summary.queries} queries, nDCG@10 ${summary.aggregate["nDCG@10"]!.toFixed(4)}, AP ${summary.aggregate.AP!.toFixed(4)}`;
}
const seconds = (performance.now() - start) / 1000;
console.log(JSON.stringify({ mode, seconds, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), detail }));
