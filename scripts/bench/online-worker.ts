import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { parseEventsJsonl } from "../metrics/events";
import { onlineReport } from "../metrics/online";

// `assay online` on a file of about 1,000,000 events: read, validate each event, compute per-arm metrics with CIs.
const [file] = process.argv.slice(2);
const start = performance.now();
const { events, errors } = parseEventsJsonl(fs.readFileSync(file, "utf8"));
const parsed = performance.now();
const report = onlineReport(events, { intervals: true, B: 2000, seed: 1 });
const seconds = (performance.now() - start) / 1000;
console.log(
  JSON.stringify({
    mode: "online",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${report.events} events (${errors.length} bad), parse+validate ${((parsed - start) / 1000).toFixed(2)} s, CTR A ${report.arms.A.ctr!.toFixed(4)} B ${report.arms.B.ctr!.toFixed(4)}`,
  }),
);
