import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { aggregationMethods, type GradedRating } from "../judgement/aggregate";
import { agreementReport } from "../judgement/agreement";
import { curveOptions, goldReport } from "../judgement/gold-report";
import { learningCurvesOnThreads } from "../workers/learning-curves";
import { createRng } from "../lib/random";

// `assay agreement --truth` on 1,500 items × 12 raters (grades 1–4; each rater right with probability
// 0.5–0.9, else a neighbouring grade), 300 of the items gold: α with 2,000 bootstrap draws, then every
// aggregation with its learning curves over 1,000 draws per point (the targets: < 1 s, < 10 s).
const rng = createRng("bench-agreement");
const items = 1500;
const raters = 12;
const skill = Array.from({ length: raters }, () => 0.5 + 0.4 * rng.next());
const ratings: GradedRating[] = [];
const truth = new Map<string, number>();
for (let i = 0; i < items; i++) {
  const grade = 1 + rng.int(4);
  if (i % 5 === 0) truth.set(`p${i % 50}:c${i}`, grade);
  for (let j = 0; j < raters; j++) {
    const off = rng.next() < skill[j] ? 0 : rng.next() < 0.5 ? -1 : 1;
    ratings.push({ item: `p${i % 50}:c${i}`, rater: `r${j}`, grade: Math.min(4, Math.max(1, grade + off)) });
  }
}
const a = performance.now();
const alpha = agreementReport(
  ratings.map((r) => ({ item: r.item, rater: r.rater, value: r.grade })),
  "ordinal",
  { B: 2000, seed: "bench" },
);
const alphaSeconds = (performance.now() - a) / 1000;
const g = performance.now();
// As `assay agreement` does it: the learning curves' points shared between two threads.
const options = { methods: aggregationMethods, draws: 1000, B: 2000, seed: "bench" };
const curves = await learningCurvesOnThreads(ratings, aggregationMethods, truth, curveOptions(options));
const gold = goldReport(ratings, truth, { ...options, curves });
const goldSeconds = (performance.now() - g) / 1000;
const ds = gold.learningCurve["dawid-skene"]!;
// The whole gold report's hash: a change meant to be faster only must leave it as it was.
const hash = createHash("sha256").update(JSON.stringify(gold)).digest("hex").slice(0, 16);
console.log(
  JSON.stringify({
    mode: "agreement",
    seconds: alphaSeconds + goldSeconds,
    cpuSeconds: Number((process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6).toFixed(2)),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `alpha ${alpha.alpha?.toFixed(6)} with its bootstrap ${alphaSeconds.toFixed(2)} s; gold and learning curves ${goldSeconds.toFixed(
      2,
    )} s; DS accuracy at n = 1, 3, 11: ${[0, 2, 10].map((k) => ds[k].accuracy.toFixed(6)).join(", ")}; gold report sha256 ${hash}`,
  }),
);
