import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { DEFAULT_DRAWS } from "../judgement/learning-curve";
import { textReport } from "../judgement/text-report";
import { agreementFixture } from "./agreement-fixture";

// `assay agreement --truth T --texts F` on the agreement bench's 1,500 items × 12 raters (30 items per
// proposal): every text-aware estimator, fixed and adaptive s, 1,000 draws per point, as the CLI runs it.
const { ratings, truth, texts } = agreementFixture();
const t = performance.now();
const report = textReport(texts, ratings, truth, { draws: DEFAULT_DRAWS, seed: "bench:texts" });
const seconds = (performance.now() - t) / 1000;
const cpu = process.cpuUsage();
const majority = report.curves.find((c) => c.method === "majority")!;
const hash = createHash("sha256").update(JSON.stringify(report)).digest("hex").slice(0, 16);
console.log(
  JSON.stringify({
    mode: "agreement-texts",
    seconds,
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${report.curves.length} curves, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; majority at n = 1, 3: ${[
      0, 2,
    ]
      .map((k) => majority.points[k].accuracy.toFixed(6))
      .join(", ")}; report sha256 ${hash}`,
  }),
);
