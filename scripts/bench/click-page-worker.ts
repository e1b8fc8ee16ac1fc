import { performance } from "node:perf_hooks";
import { experimentClicks, type ExperimentClicksInput } from "../clicks/experiment-report";
import type { RawSession } from "../clicks/log";
import { generateDemo } from "../demo/generate";
import { demoCommitteesAndLists, simulateSessions } from "../demo/sessions";
import { PAGE_B } from "../lib/defaults";

// The click-model page's computation (what the worker pool runs for /analyst/experiments/:key/clicks) on
// the demo A/B experiment's simulated sessions: twelve models with their intervals over conveners and
// PBM's curve refitted B times. `npm run bench -- click-page` runs it at the page's B and at B = 1 (so
// the difference is what the intervals cost). K_hit's display depth (tier 1) is left out.
const B = Number(process.argv[2] ?? PAGE_B);
const data = generateDemo();
const events = simulateSessions(data, { experiment: "bench-clicks", seed: "assay-demo" });
const bySession = new Map<string, { session: RawSession; arm: string; unit: string }>();
for (const e of events) {
  if (e.type === "impression") {
    const results = (e.items ?? []).slice(0, 10);
    const session = { id: e.sessionId, query: e.proposalId, results, clicks: results.map(() => 0) };
    bySession.set(e.sessionId, { session, arm: e.arm!, unit: e.unitId });
  } else if (e.type === "click") {
    const s = bySession.get(e.sessionId)!.session;
    const r = s.results.indexOf(e.candidateId!);
    if (r >= 0) s.clicks[r] = 1;
  }
}
const rows = [...bySession.values()];
const { gold } = demoCommitteesAndLists(data);
const input: ExperimentClicksInput = {
  experiment: { key: "bench-clicks", name: "bench" },
  settings: { seed: "bench-clicks", testShare: 0.25, iterations: 50, maxRank: 10, B },
  sessions: rows.map((r) => r.session),
  arms: rows.map((r) => r.arm),
  units: rows.map((r) => r.unit),
  armSystems: [
    { arm: "A", system: "baseline", control: true },
    { arm: "B", system: "challenger" },
  ],
  committees: [...gold].map(([p, members]) => [p, [...members].sort()]),
  offline: null,
};
const start = performance.now();
const cpu = process.cpuUsage();
const result = experimentClicks(input);
const seconds = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
const rank5 = result.fit!.examination[4];
const armB = result.fit!.arms[1].difference;
console.log(
  JSON.stringify({
    mode: `click-page B=${B}`,
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${rows.length} sessions, CPU ${((used.user + used.system) / 1e6).toFixed(2)} s; examination at rank 5 ${rank5.relative.toFixed(3)} ${JSON.stringify(rank5.relativeCi)}; CTR B − A ${armB?.ctr?.toFixed(4)} ${JSON.stringify(armB?.ctrCi)}`,
  }),
);
