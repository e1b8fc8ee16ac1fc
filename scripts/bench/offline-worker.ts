import { performance } from "node:perf_hooks";
import { createRng } from "../lib/random";
import { candidateSubjects } from "../offline/exposure";
import { offlineReport, type OfflineInput } from "../offline/report";
import { systemScoreSections } from "../offline/scores";

// The whole offline report (every measure, score statistics and bands, exposure) on 10,000 proposals ×
// 2 systems × 100 scored candidates, B = 2,000: 20 subjects, a catalog of 20,000, committees of 5.
const proposals = 10_000;
const depth = 100;
const rng = createRng("bench-offline");
const catalog = Array.from({ length: 20_000 }, (_, i) => `c${i}`);
const subjectOf = (c: number) => c % 20;
const input: OfflineInput = {
  proposals: Array.from({ length: proposals }, (_, i) => ({ id: `p${i}`, subject: `s${i % 20}` })),
  gold: new Map(),
  systems: [],
  catalog: new Set(catalog),
};
const pools = Array.from({ length: 20 }, (_, s) => catalog.filter((_, c) => subjectOf(c) === s));
const gold = input.gold as Map<string, Set<string>>;
for (let i = 0; i < proposals; i++) {
  const pool = pools[i % 20];
  gold.set(`p${i}`, new Set(Array.from({ length: 5 }, () => pool[rng.int(pool.length)])));
}
for (const [key, noise] of [
  ["baseline", 0.6],
  ["challenger", 0.3],
] as const) {
  const lists = new Map<string, Map<string, string[]>>();
  const scores = new Map<string, Map<string, number[]>>();
  for (let i = 0; i < proposals; i++) {
    const pool = pools[i % 20];
    const members = [...gold.get(`p${i}`)!];
    const items = new Set<string>();
    // Committee members land in the list with a probability that falls with the noise; the rest is drawn mostly from the subject.
    for (const m of members) if (rng.next() > noise) items.add(m);
    while (items.size < depth)
      items.add(rng.next() < 0.7 ? pool[rng.int(pool.length)] : catalog[rng.int(catalog.length)]);
    const ranked = [...items]
      .map((c) => ({ c, s: (members.includes(c) ? 1 : 0) + noise * 3 * rng.next() }))
      .sort((a, b) => b.s - a.s);
    lists.set(`p${i}`, new Map([["default", ranked.map((r) => r.c)]]));
    scores.set(`p${i}`, new Map([["default", ranked.map((r) => r.s)]]));
  }
  input.systems.push({ key, name: key, lists, scores });
}
const start = performance.now();
const report = offlineReport(input, { B: 2000, seed: "bench" });
const seconds = (performance.now() - start) / 1000;
const [a] = report.systems;
// The score and exposure sections alone (they are inside the report's time too), in CPU seconds.
const cpu = process.cpuUsage();
const candidateSubject = candidateSubjects(input.proposals, input.gold);
for (const s of input.systems)
  systemScoreSections(input, s, input.proposals, { ks: report.parameters.ks, level: 0.95, candidateSubject });
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    mode: "offline",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `score and exposure sections ${((used.user + used.system) / 1e6).toFixed(2)} s CPU; HR@10 ${a.overall.measures["Success@10"].value?.toFixed(3)}, Gini@10 ${a.exposure.overall.byK[1].gini?.toFixed(3)}, ${a.scoreBands?.bands.length} bands`,
  }),
);
