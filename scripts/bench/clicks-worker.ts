import { performance } from "node:perf_hooks";
import { evaluateLogs, knownQueries } from "../clicks/evaluate";
import { subLog } from "../clicks/log";
import { modelNames } from "../clicks/models";
import { simulateDbnLog } from "../clicks/simulate";

// All twelve click models (textbook mode, 50 EM iterations) fitted on 750,000 sessions of a generated
// 1,000,000-session DBN log (10,000 queries, 10 results each) and evaluated on the other 250,000. For
// TCM the sessions of one query within each 100,000 form a task (about ten sessions each).
const sessions = Number(process.argv[2] ?? 1_000_000);
const generated = performance.now();
const { log } = simulateDbnLog({ sessions, queries: 10_000, seed: "bench-clicks" });
for (let s = 0; s < log.size; s++) log.task[s] = log.query[s] * 10 + Math.floor(s / 100_000);
const cut = Math.floor(sessions * 0.75);
const train = subLog(
  log,
  Int32Array.from({ length: cut }, (_, i) => i),
);
const test = knownQueries(
  train,
  subLog(
    log,
    Int32Array.from({ length: sessions - cut }, (_, i) => cut + i),
  ),
);
console.error(
  `      generated ${sessions.toLocaleString("en")} sessions in ${(
    (performance.now() - generated) /
    1000
  ).toFixed(1)} s (not counted)`,
);
const start = performance.now();
const times: string[] = [];
for (const name of modelNames) {
  const t = performance.now();
  const report = evaluateLogs(train, test, { models: [name] })[name];
  const total = (performance.now() - t) / 1000;
  times.push(`${name} ${total.toFixed(1)}`);
  console.error(
    `      ${name.padEnd(5)} fit ${report.trainSeconds.toFixed(2)} s, fit + evaluate ${total.toFixed(
      2,
    )} s, perplexity ${report.perplexity.toFixed(4)}`,
  );
}
const seconds = (performance.now() - start) / 1000;
console.log(
  JSON.stringify({
    mode: "clicks",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: times.join(", "),
  }),
);
