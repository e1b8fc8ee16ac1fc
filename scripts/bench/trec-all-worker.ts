import { performance } from "node:perf_hooks";
import { summarize } from "../eval/evaluate";
import { evaluateRunFile } from "../io/evaluate-files";
import { parseMeasures } from "../eval/measures";

// `assay eval -m all_trec` on the generated run: every trec_eval measure (98 values per query), in
// a process of its own so its peak memory is its own.
const [qrelsFile, runFile] = process.argv.slice(2);
const start = performance.now();
const measures = parseMeasures(["all_trec"]);
const summary = summarize(await evaluateRunFile(qrelsFile, runFile, measures));
const seconds = (performance.now() - start) / 1000;
const detail = `${summary.queries} queries, ${measures.length} measures, AP ${summary.aggregate.AP!.toFixed(4)}, gm_map ${summary.aggregate.gm_map!.toFixed(4)}`;
console.log(
  JSON.stringify({
    mode: "trec-all",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail,
  }),
);
