import { performance } from "node:perf_hooks";
import { createRng } from "../lib/random";
import { bootstrapMeans } from "../stats/bootstrap";

// Bootstrap of 10 measures over 10,000 queries with B = 10,000, on one core.
const n = 10_000;
const rng = createRng("bench-bootstrap");
const columns = Array.from({ length: 10 }, () => Float64Array.from({ length: n }, () => rng.next()));
const start = performance.now();
const intervals = bootstrapMeans(columns, { B: 10_000, seed: 1 });
const seconds = (performance.now() - start) / 1000;
console.log(
  JSON.stringify({
    mode: "bootstrap",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `first CI [${intervals[0]!.lower.toFixed(4)}, ${intervals[0]!.upper.toFixed(4)}]`,
  }),
);
