import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { createDb } from "../../db/platform/client";
import { createUser } from "../../db/accounts/users";
import { importFile } from "../../db/import";
import { benchServer } from "./server";
import { signInForBench } from "./sign-in";
import { clickBatch, postEvents as post, quantile as q, runningExperiment, unitsOf } from "./probes";

/**
 * Does a large import leave the server responsive? An admin uploads a candidates CSV of ROWS rows
 * (default 1,000,000, about 24 MB) through Admin → Import of the production build; while it runs,
 * one client probes GET /healthz and another posts a batch of 10 events, each every 50 ms. Reports
 * the import's time, the probes' p50, p99 and max, and the server's peak memory (its process tree).
 */
const rows = Number(process.env.ROWS ?? 1_000_000);
let apiKey = "";
let running = true; // the probes run until the import has ended, or the bench has failed
const { base, stop, pid } = await benchServer(async (url) => {
  const { db, sql } = createDb(url);
  await createUser(db, "cli", {
    email: "bench-admin@assay.local",
    name: "Admin",
    roles: ["admin"],
    password: "bench-password-1",
  });
  await importFile(db, "cli", "systems", "key,name\nbaseline,Baseline\nchallenger,Challenger", "csv");
  apiKey = await runningExperiment(db, "imp");
  await sql.end();
});
try {
  const admin = await signInForBench(base, "bench-admin@assay.local", "bench-password-1");
  // Two columns keep 1,000,000 rows (about 24 MB) under the page's 50 MB upload limit.
  const lines = ["external_id,name"];
  for (let i = 0; i < rows; i++) lines.push(`C${i},Candidate ${i}`);
  const csv = lines.join("\n");
  const form = new FormData();
  form.set("csrf", admin.csrf);
  form.set("intent", "import");
  form.set("entity", "candidates");
  form.set("file", new File([csv], "bench-candidates.csv", { type: "text/csv" }));
  const route = "_data=routes%2Fadmin.import";
  let failed = 0;
  /** A probe's time; one that fails (an error status or a dropped connection) is counted, and timed too. */
  const timed = async (request: () => Promise<Response>) => {
    const t = performance.now();
    try {
      const response = await request();
      await response.arrayBuffer();
      if (!response.ok) failed++;
    } catch {
      failed++;
    }
    return performance.now() - t;
  };
  const units = unitsOf("imp", 10);
  const postEvents = () => post(base, apiKey, clickBatch("imp", units, 10));
  const health: number[] = [];
  const posts: number[] = [];
  let peakKiB = 0;
  const loop = async (request: () => Promise<Response>, into: number[]) => {
    while (running) {
      into.push(await timed(request));
      peakKiB = Math.max(peakKiB, treeRssKiB(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const probes = Promise.all([loop(() => fetch(`${base}/healthz`), health), loop(postEvents, posts)]);
  const started = performance.now();
  const answer = await fetch(`${base}/admin/import?${route}`, {
    method: "POST",
    body: form,
    headers: admin.formHeaders,
  });
  type Job = { id: string; state: string; result: unknown };
  let { job } = (await answer.json()) as { job: Job | null };
  if (!job) throw new Error(`the upload was answered ${answer.status}`);
  while (job.state === "running") {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const polled: Response = await fetch(`${base}/admin/import?job=${job.id}&${route}`, {
      headers: admin.formHeaders,
    });
    job = ((await polled.json()) as { job: Job }).job;
  }
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await probes;
  if (job.state !== "done") throw new Error(`the import ended ${job.state}: ${JSON.stringify(job.result)}`);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(
    JSON.stringify({
      mode: "import-web",
      seconds,
      maxRssMiB: Math.round(peakKiB / 1024),
      healthP99: q(health, 0.99),
      eventsP99: q(posts, 0.99),
      failed,
      detail:
        `${rows.toLocaleString("en")} rows (${(csv.length / 1024 / 1024).toFixed(0)} MiB) in ${seconds.toFixed(0)} s; ` +
        `/healthz p50 ${ms(q(health, 0.5))}, p99 ${ms(q(health, 0.99))}, max ${ms(Math.max(...health))} (${health.length} probes); ` +
        `POST /api/events p50 ${ms(q(posts, 0.5))}, p99 ${ms(q(posts, 0.99))}, max ${ms(Math.max(...posts))} (${posts.length} batches); ` +
        `${failed} probes failed; server peak RSS ${Math.round(peakKiB / 1024)} MiB (process tree)`,
    }),
  );
} finally {
  running = false;
  await stop();
}

/** The resident memory of a process and its descendants, in KiB (Linux /proc; 0 elsewhere). */
function treeRssKiB(root: number): number {
  try {
    const status = fs.readFileSync(`/proc/${root}/status`, "utf8");
    const own = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const children = fs
      .readFileSync(`/proc/${root}/task/${root}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
    return own + children.reduce((n, child) => n + treeRssKiB(child), 0);
  } catch {
    return 0;
  }
}
