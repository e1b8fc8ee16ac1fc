import { performance } from "node:perf_hooks";
import { createRng } from "../lib/random";
import { splitCommittees, splitLines } from "../offline/protocol";

// `assay protocol split`'s work on 10,000 proposals (committees of 2 to 12 from a catalog of 20,000):
// the seeded split of every committee and the two JSONL files' lines, given-2 and all-but-1, one fold.
const proposals = 10_000;
const rng = createRng("bench-protocol");
const gold = new Map<string, Set<string>>();
for (let i = 0; i < proposals; i++) {
  const size = 2 + rng.int(11);
  const members = new Set<string>();
  while (members.size < size) members.add(`c${rng.int(20_000)}`);
  gold.set(`p${i}`, members);
}
const timed = (protocol: "given-2" | "all-but-1") => {
  const start = performance.now();
  const split = splitCommittees(gold, { protocol, seed: "bench" }, 1);
  const lines = splitLines(split);
  const bytes =
    lines.inputs.reduce((n, l) => n + l.length + 1, 0) +
    lines.measurement.reduce((n, l) => n + l.length + 1, 0);
  return {
    seconds: (performance.now() - start) / 1000,
    cases: split.cases.length,
    dropped: split.dropped.length,
    bytes,
  };
};
const given2 = timed("given-2");
const abo = timed("all-but-1");
console.log(
  JSON.stringify({
    mode: "protocol",
    seconds: Math.max(given2.seconds, abo.seconds),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `given-2 ${given2.seconds.toFixed(3)} s (${given2.cases} cases, ${given2.dropped} dropped, ${(given2.bytes / 1e6).toFixed(1)} MB of lines); all-but-1 ${abo.seconds.toFixed(3)} s (${abo.cases} cases)`,
  }),
);
