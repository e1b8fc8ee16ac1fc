import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eventsFixture, runFixture, subjectsFixture } from "./fixtures";

/**
 * `npm run bench`: each measurement in a process of its own (so its peak memory is its own), checked
 * against the targets of the issues. Inputs are generated once into the temp folder.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, "../../node_modules/tsx/dist/cli.mjs");

interface Result {
  mode: string;
  seconds: number;
  maxRssMiB: number;
  detail: string;
}

function measure(script: string, ...args: string[]): Result {
  const out = execFileSync(process.execPath, [tsx, path.join(here, script), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

const only = process.argv[2];
const rows: string[] = [];
const report = (name: string, r: Result, target: string, ok: boolean) => {
  rows.push(
    `${ok ? "PASS" : "MISS"}  ${name.padEnd(34)} ${r.seconds.toFixed(2).padStart(6)} s  ${String(r.maxRssMiB).padStart(5)} MiB  target ${target}  (${r.detail})`,
  );
  console.log(rows[rows.length - 1]);
};

if (!only || only === "eval") {
  console.log("Generating (once) a run of 100,000 queries × 100 candidates…");
  const { runFile, qrelsFile, bytes } = runFixture();
  console.log(`run file: ${(bytes / 1024 / 1024).toFixed(0)} MiB`);
  const floor = measure("eval-worker.ts", "floor", qrelsFile, runFile);
  report("read-and-split floor, 2 threads", floor, "(the floor)", true);
  const evalResult = measure("eval-worker.ts", "eval", qrelsFile, runFile);
  report(
    "eval nDCG@10, AP, RR",
    evalResult,
    "< 1.5 s, < 1024 MiB",
    evalResult.seconds < 1.5 && evalResult.maxRssMiB < 1024,
  );
  console.log(`      eval / floor = ${(evalResult.seconds / floor.seconds).toFixed(2)}`);
  const single = measure("eval-worker.ts", "eval-1-thread", qrelsFile, runFile);
  report("eval on one thread", single, "(for comparison)", true);
  // trec_eval mode on the same files and measures: on eval's engine, so as fast and lean as it (CPU time,
  // both threads of eval counted; memory).
  const trec = measure("eval-worker.ts", "trec_eval", qrelsFile, runFile);
  const cpu = (r: Result) => Number(/CPU ([\d.]+) s/.exec(r.detail)![1]);
  report(
    "trec_eval ndcg_cut.10 map recip_rank",
    trec,
    "CPU and memory ≤ eval's",
    cpu(trec) <= cpu(evalResult) && trec.maxRssMiB <= evalResult.maxRssMiB,
  );
  // trec_eval itself, when TREC_EVAL names a built binary (usnistgov/trec_eval, `make`).
  if (process.env.TREC_EVAL) {
    const start = performance.now();
    execFileSync(
      process.env.TREC_EVAL,
      ["-m", "ndcg_cut.10", "-m", "map", "-m", "recip_rank", qrelsFile, runFile],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `      trec_eval itself: ${seconds.toFixed(2)} s (${(seconds / trec.seconds).toFixed(1)}× trec_eval mode's time)`,
    );
  }
}
if (!only || only === "trec-all") {
  console.log("Generating (once) a run of 100,000 queries × 100 candidates…");
  const { runFile, qrelsFile } = runFixture();
  const r = measure("trec-all-worker.ts", qrelsFile, runFile);
  report("eval -m all_trec (98 measures)", r, "seconds", true);
  // trec_eval itself, when TREC_EVAL names a built binary (usnistgov/trec_eval, `make`).
  if (process.env.TREC_EVAL) {
    const start = performance.now();
    execFileSync(process.env.TREC_EVAL, ["-m", "all_trec", qrelsFile, runFile], {
      stdio: ["ignore", "ignore", "inherit"],
      maxBuffer: 1 << 30,
    });
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `      trec_eval -m all_trec: ${seconds.toFixed(2)} s (${(seconds / r.seconds).toFixed(1)}× assay's time)`,
    );
  }
}
if (!only || only === "bootstrap") {
  const r = measure("bootstrap-worker.ts");
  report("bootstrap 10 × 10,000 q, B=10,000", r, "< 2 s on one core", r.seconds < 2);
}
if (!only || only === "offline") {
  const r = measure("offline-worker.ts");
  report("offline report, 10,000 p × 2 × 100, B=2,000", r, "< 10 s", r.seconds < 10);
}
if (!only || only === "fairness") {
  const r = measure("fairness-worker.ts");
  report("fairness, 10,000 p × 2 × 100, 2 attributes, B=2,000", r, "< 15 s", r.seconds < 15);
}
if (!only || only === "protocol") {
  const r = measure("protocol-worker.ts");
  report("protocol split, 10,000 proposals", r, "< 2 s", r.seconds < 2);
}
if (!only || only === "online") {
  console.log("Generating (once) about 1,000,000 convener events…");
  const { file } = eventsFixture();
  const r = measure("online-worker.ts", file);
  report("online, 1,000,000 events", r, "< 5 s", r.seconds < 5);
  const h = eventsFixture(1_000_000, true);
  const d = measure("online-worker.ts", h.file, "decisions", subjectsFixture());
  report("online --cuped --engine bayesian --slice subject, 1,000,000 events", d, "< 5 s", d.seconds < 5);
}
if (!only || only === "interleave") {
  // Generates (once) its own interleaved events, with team-draft impressions.
  const r = measure("interleave-worker.ts");
  report("interleave, 1,000,000 events", r, "< 5 s", r.seconds < 5);
  const s = measure("interleave-worker.ts", "slice");
  report("interleave --slice subject, 1,000,000 events", s, "< 5 s", s.seconds < 5);
}
if (!only || only === "import") {
  const r = measure("import-worker.ts");
  report("import 100,000 list items", r, "seconds", r.seconds < 10);
  // Needs the production build, like "api": a 1,000,000-row upload through Admin → Import.
  const web = measure("import-web-worker.ts") as Result & {
    healthP99: number;
    eventsP99: number;
    failed: number;
  };
  report(
    "web import 1,000,000 candidates",
    web,
    "/healthz and events p99 < 250 ms",
    web.healthP99 < 250 && web.eventsP99 < 250 && web.failed === 0,
  );
}
if (!only || only === "pagination") {
  const r = measure("pagination-worker.ts");
  report("candidates page 20,001 of 2,000,000", r, "< 0.5 s at any depth (cursor)", r.seconds < 0.5);
}
if (!only || only === "api") {
  // Needs the production build: `npm run build` first (npm run bench does it).
  const r = measure("api-worker.ts") as Result & { rate: number; lost: number };
  report(
    "POST /api/events, 4 clients × 100",
    r,
    "≥ 5,000 events/s for 60 s, none lost",
    r.rate >= 5000 && r.lost === 0,
  );
}
if (!only || only === "task") {
  const r = measure("task-worker.ts") as Result & { pageP95: number; saveP95: number };
  report(
    "expert task page, 150 pooled, 20 experts",
    r,
    "page p95 < 100 ms, save p95 < 50 ms",
    r.pageP95 < 100 && r.saveP95 < 50,
  );
}
if (!only || only === "crowd") {
  // Needs the production build, like "api"; CROWD_EXPERTS (default 200) and BENCH_SECONDS (default 120).
  const r = measure("crowd-worker.ts") as Result & {
    saveP50: number;
    saveP99: number;
    healthP99: number;
    lost: number;
    duplicated: number;
  };
  report(
    "crowd: experts grading one campaign",
    r,
    "save p50 < 50 ms, p99 < 300 ms, /healthz p99 < 250 ms, none lost",
    r.saveP50 < 50 && r.saveP99 < 300 && r.healthP99 < 250 && r.lost === 0 && r.duplicated === 0,
  );
}
if (!only || only === "dashboard") {
  const r = measure("dashboard-worker.ts");
  report("online dashboard, 1,000,000 events", r, "< 3 s server time", r.seconds < 3);
  // The A/B page as it computes decisions (CUPED, Bayesian, slices, guardrails): timed is the view after
  // the first computation (kept results); the first view and one after new data are in the detail.
  const d = measure("decision-dashboard-worker.ts");
  report("decision dashboard, 1M events", d, "< 2 s after the first computation", d.seconds < 2);
}
if (!only || only === "results") {
  // Needs the production build, like "api".
  const r = measure("results-worker.ts");
  report("a page viewed again, unchanged data", r, "< 100 ms server time", r.seconds < 0.1);
}
if (!only || only === "isolation") {
  // Needs the production build, like "api".
  const r = measure("isolation-worker.ts") as Result & { healthP99: number; eventsP99: number };
  report(
    "healthz, events during 3 × B=10,000",
    r,
    "p99 < 250 ms for both",
    r.healthP99 < 250 && r.eventsP99 < 250,
  );
}
if (!only || only === "outage") {
  // Needs the production build, like "api". The bounds the outage tests leave to this bench.
  const r = measure("outage-worker.ts") as Result & {
    slowestMs: number;
    restartMs: number;
    upMs: number;
    gateFirstMs: number;
  };
  report(
    "database outage: SIGKILL, silent server",
    r,
    "answers < 2 s, restart < 10 s, /healthz up < 15 s, first wave < 2 s",
    r.slowestMs < 2000 && r.restartMs < 10_000 && r.upMs < 15_000 && r.gateFirstMs < 2000,
  );
}
if (!only || only === "clicks") {
  const r = measure("clicks-worker.ts");
  report(
    "clicks: 12 models, 1,000,000 sessions",
    r,
    "< 60 s, < 2048 MiB",
    r.seconds < 60 && r.maxRssMiB < 2048,
  );
}
if (!only || only === "click-page") {
  // The page's fit at its B, then at B = 1: what the intervals (PBM refitted B times included) cost.
  const page = measure("click-page-worker.ts");
  const plain = measure("click-page-worker.ts", "1");
  report("click-model page, demo A/B, B = 1,000", page, "(no target; see B = 1)", true);
  report("click-model page, demo A/B, B = 1", plain, "(for comparison)", true);
  console.log(
    `      intervals cost ${(page.seconds - plain.seconds).toFixed(2)} s (×${(page.seconds / plain.seconds).toFixed(2)})`,
  );
}
if (!only || only === "freeze-grading") {
  // Freezing the offline report while an expert saves a grade every 250 ms, against nobody grading (issue 22).
  const r = measure("freeze-grading.ts");
  report("freeze offline while grading", r, "(no target; see `none`)", true);
}
if (!only || only === "agreement") {
  const r = measure("agreement-worker.ts");
  report(
    "agreement: 1,500 items × 12 raters, --truth",
    r,
    "< 10 s (alpha with B = 2,000 < 1 s)",
    r.seconds < 10 && Number(/bootstrap ([\d.]+) s/.exec(r.detail)?.[1]) < 1,
  );
}
if (!only || only === "agreement" || only === "agreement-texts") {
  const r = measure("agreement-texts-worker.ts");
  report("agreement --texts: 1,500 × 12, --truth", r, "(no target yet)", true);
}
if (!only || only === "cli-start") {
  const r = measure("cli-start-worker.ts") as Result & { ratio: number };
  report("assay eval start-up vs node -e 0", r, "within 2× of node -e 0", r.ratio <= 2);
}
console.log(`\nSummary\n${rows.join("\n")}`);
