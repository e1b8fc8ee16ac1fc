import { performance } from "node:perf_hooks";
import { onlineFromFile } from "../io/online-files";

// `assay online` on a file of about 1,000,000 events: read, validate each event, compute per-arm metrics with CIs.
const [file, mode] = process.argv.slice(2);
const start = performance.now();
const result = await onlineFromFile(file, {
  intervals: true,
  B: 2000,
  seed: 1,
  threads: mode === "one-thread" ? 1 : 2,
});
const seconds = (performance.now() - start) / 1000;
if (!result.ok) throw new Error(`${result.errors.length} bad lines`);
const report = result.report;
console.log(
  JSON.stringify({
    mode: "online",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${report.events} events, ${report.uniqueEvents} unique, ${Object.values(report.arms).reduce((n, a) => n + a.units, 0)} units; adoption A ${report.arms.A.adoptionRate!.toFixed(4)} B ${report.arms.B.adoptionRate!.toFixed(4)}`,
  }),
);
