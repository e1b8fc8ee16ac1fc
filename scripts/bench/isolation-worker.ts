import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createDb } from "../../db/platform/client";
import { benchServer } from "./server";
import { seedDemo } from "../demo/seed";
import { createUser } from "../../db/accounts/users";
import { clickBatch, postEvents as post, quantile, runningExperiment, unitsOf } from "./probes";
import { signInForBench } from "./sign-in";

/**
 * Is the server still responsive while it computes? Three analysts, signed in, recompute the offline
 * report with B = 10,000 back to back for BENCH_SECONDS (default 30) against the production build with
 * the demo data, while one client probes GET /healthz and another posts batches of 10 events, each
 * every 50 ms. Reports the probes' latencies (p50, p99), the same probes' p99 over a quiet stretch
 * before (what the machine gives without reports), one report's time alone and the reports' times
 * under load (queued behind each other when there are fewer worker threads than analysts).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const analysts = 3;
const pauseMs = 50;
let apiKey = "";
const { base, stop } = await benchServer(async (url) => {
  const { db, sql } = createDb(url);
  await seedDemo(db);
  for (let i = 0; i < analysts; i++) {
    await createUser(db, "cli", {
      email: `bench-analyst-${i}@assay.local`,
      name: `Analyst ${i}`,
      roles: ["analyst"],
      password: "bench-password-1",
    });
  }
  apiKey = await runningExperiment(db, "isolation");
  await sql.end();
});
try {
  const cookies: string[] = [];
  for (let i = 0; i < analysts; i++)
    cookies.push((await signInForBench(base, `bench-analyst-${i}@assay.local`, "bench-password-1")).cookie);
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  const timed = async (request: () => Promise<Response>) => {
    const t = performance.now();
    const response = await request();
    await response.arrayBuffer();
    return { ms: performance.now() - t, status: response.status };
  };

  const units = unitsOf("isolation", 200);
  const postEvents = () => post(base, apiKey, clickBatch("isolation", units, 10));
  /** Probes /healthz and POST /api/events, each every 50 ms until `until`; their latencies. */
  const probe = async (until: number) => {
    const health: number[] = [];
    const posts: number[] = [];
    const loop = async (request: () => Promise<Response>, into: number[]) => {
      while (performance.now() < until) {
        const r = await timed(request);
        if (r.status !== 200) throw new Error(`a probe was answered ${r.status}`);
        into.push(r.ms);
        await pause();
      }
    };
    await Promise.all([loop(() => fetch(`${base}/healthz`), health), loop(postEvents, posts)]);
    return { health, posts };
  };

  // First a quiet stretch, the machine's own floor (other processes share its cores), then the load.
  const quiet = await probe(performance.now() + Math.min(10, seconds / 3) * 1000);
  const report = (cookie: string) =>
    timed(() => fetch(`${base}/analyst?B=10000&seed=bench-${randomUUID()}`, { headers: { Cookie: cookie } }));
  const alone = await report(cookies[0]); // one report with nothing else running: its own time
  if (alone.status !== 200) throw new Error(`the offline report answered ${alone.status}`);
  const deadline = performance.now() + seconds * 1000;
  const dashboards: number[] = [];
  const dashboardStatuses: number[] = [];
  const analystLoops = cookies.map(async (cookie) => {
    while (performance.now() < deadline) {
      const r = await report(cookie);
      dashboardStatuses.push(r.status);
      if (r.status === 200) dashboards.push(r.ms);
      else await new Promise((resolve) => setTimeout(resolve, 1000)); // a 503: the analyst waits, then retries
    }
  });
  const started = performance.now();
  const [{ health, posts }] = await Promise.all([probe(deadline), ...analystLoops]);
  const elapsed = (performance.now() - started) / 1000;
  const refused = dashboardStatuses.filter((s) => s === 503).length;
  const failed = dashboardStatuses.filter((s) => s !== 200 && s !== 503).length;
  if (failed)
    throw new Error(`${failed} offline reports failed (${[...new Set(dashboardStatuses)].join(", ")})`);
  const [healthP50, healthP99, eventsP50, eventsP99] = [
    quantile(health, 0.5),
    quantile(health, 0.99),
    quantile(posts, 0.5),
    quantile(posts, 0.99),
  ];
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    JSON.stringify({
      mode: "isolation",
      seconds: elapsed,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      healthP99,
      eventsP99,
      detail:
        `one report at B=10,000 alone ${ms(alone.ms)}; ${analysts} analysts, ${dashboards.length} reports ` +
        `(p50 ${ms(quantile(dashboards, 0.5))}, ` +
        `max ${ms(Math.max(...dashboards))}, ${refused} refused with 503); /healthz p50 ${ms(healthP50)}, p99 ${ms(healthP99)} ` +
        `(${health.length} probes); POST /api/events p50 ${ms(eventsP50)}, p99 ${ms(eventsP99)} (${posts.length} batches of 10); ` +
        `with no reports running: /healthz p99 ${ms(quantile(quiet.health, 0.99))}, events p99 ${ms(quantile(quiet.posts, 0.99))}`,
    }),
  );
} finally {
  await stop();
}
