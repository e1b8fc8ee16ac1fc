import os from "node:os";
import { performance } from "node:perf_hooks";
import { createRng } from "../lib/random";
import { fairnessReportOnThreads } from "../workers/fairness-reports";

// The fairness figures (share, exposure, rND/rKL/rRD, AWRF, committees, exposure per merit, with CIs) on
// 10,000 proposals × 2 systems × 100 candidates, B = 2,000: a catalog of 20,000, committees of 5, two
// attributes (gender of 3 values, country of 50), the challenger ranking women lower. As `assay fairness`
// runs it: one system per thread (`threads`, the third argument, 1 for the single-thread figure).
const proposals = Number(process.argv[2] ?? 10_000);
const B = Number(process.argv[3] ?? 2000);
const threads = Number(process.argv[4] ?? 2);
const depth = 100;
const rng = createRng("bench-fairness");
const catalog = Array.from({ length: 20_000 }, (_, i) => `c${i}`);
const gender = new Map(catalog.map((c) => [c, rng.next() < 0.4 ? "f" : rng.next() < 0.9 ? "m" : "unknown"]));
const country = new Map(catalog.map((c) => [c, `K${Math.floor(50 * rng.next() ** 2)}`]));
const committees = new Map(
  Array.from({ length: proposals }, (_, i) => [
    `p${i}`,
    Array.from({ length: 5 }, () => catalog[rng.int(catalog.length)]),
  ]),
);
const lists = new Map<string, Map<string, string[]>>();
for (const [system, penalty] of [
  ["baseline", 0],
  ["challenger", 0.5],
] as const) {
  const bySystem = new Map<string, string[]>();
  for (const [proposal, members] of committees) {
    const items = new Set(members.filter(() => rng.next() < 0.6));
    while (items.size < depth) items.add(catalog[rng.int(catalog.length)]);
    const score = (c: string) =>
      (members.includes(c) ? 1 : 0) + rng.next() - (gender.get(c) === "f" ? penalty * rng.next() : 0);
    bySystem.set(
      proposal,
      [...items]
        .map((c) => ({ c, s: score(c) }))
        .sort((a, b) => b.s - a.s)
        .map((x) => x.c),
    );
  }
  lists.set(system, bySystem);
}
const start = performance.now();
const cpu = process.cpuUsage();
const report = await fairnessReportOnThreads(
  {
    lists,
    attributes: new Map([
      ["gender", gender],
      ["country", country],
    ]),
    committees,
    ks: [10, 20, 50],
    bootstrap: { B, seed: "bench" },
  },
  threads,
);
const seconds = (performance.now() - start) / 1000;
// The process's CPU time, every thread's: beside the wall time, it says how loaded the machine was.
const { user, system } = process.cpuUsage(cpu);
const f = report.challenger.attributes.gender.groups.f.figures;
console.log(
  JSON.stringify({
    mode: "fairness",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${proposals} p, B=${B}, ${threads} thread${threads === 1 ? "" : "s"}, ${((user + system) / 1e6).toFixed(1)} s CPU, load ${os.loadavg()[0].toFixed(1)}; challenger share@10 of f ${f["share@10"].value!.toFixed(3)}, exposure per merit vs rest ${f.exposurePerMeritRatio.value!.toFixed(3)}`,
  }),
);
