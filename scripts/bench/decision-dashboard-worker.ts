import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { startEmbeddedPostgres } from "../../db/platform/embedded";
import { applyMigrations } from "../../db/migrate";
import { importFile } from "../../db/import";
import { createExperiment, getExperiment } from "../../db/experiments/experiments";
import { updateAnalysisSettings } from "../../db/experiments/analysis-settings";
import { armCounts, unknownIdFindings } from "../../db/experiments/experiment-stats";
import { refreshEventSessions } from "../../db/experiments/event-sessions";
import { onlineResult } from "../../db/results/online";
import { compositionResult } from "../../db/results/online-composition";
import { experimentSchema } from "../inputs/experiments";
import { runInProcess } from "../workers/heavy-tasks";
import { generateEvents } from "./dashboard-data";

/**
 * The decision dashboard an analyst's A/B page computes (app/routes/analyst.experiments.$key.tsx via
 * experimentDashboard and compositionDashboard) on an experiment of 1,000,000 events with CUPED on (a
 * 28-day pre-period read from another experiment of 200,000 events of the same conveners), the Bayesian
 * engine, three guardrails, slices by subject (8 subjects) and by two convener attributes: the first
 * view (everything computed), the second view of unchanged data (kept results), and a view after one new
 * event (computed anew). The heavy work runs on this thread (`runInProcess`), the page's pool aside.
 */
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-decide-"));
await fs.chmod(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir });

async function setUp(db: ReturnType<typeof createDb>["db"]) {
  await importFile(db, "cli", "systems", "key\nbaseline\nchallenger", "csv");
  const subjects = Array.from({ length: 8 }, (_, i) => `s${i}`);
  await importFile(
    db,
    "cli",
    "subjects",
    `key,name\n${subjects.map((s) => `${s},Subject ${s}`).join("\n")}`,
    "csv",
  );
  const proposals = Array.from({ length: 2000 }, (_, i) => `p${i},Proposal ${i},s${i % 8}`);
  await importFile(db, "cli", "proposals", `external_id,title,subject\n${proposals.join("\n")}`, "csv");
  const arms = [
    { key: "A", system: "baseline", weight: 0.5 },
    { key: "B", system: "challenger", weight: 0.5 },
  ];
  const history = await createExperiment(
    db,
    "cli",
    experimentSchema.parse({ key: "history", name: "History", arms, control: "A" }),
  );
  const created = await createExperiment(
    db,
    "cli",
    experimentSchema.parse({ key: "big", name: "Big", arms, control: "A" }),
  );
  const t0 = performance.now();
  // 25,000 sessions from 1 September: the 28 days before the experiment's start of 1 October.
  await generateEvents(db, history.id, { sessions: 25_000, from: "2026-09-01", finish: true, prefix: "h" });
  await generateEvents(db, created.id, { sessions: 125_000, from: "2026-10-01", finish: true });
  const loaded = (performance.now() - t0) / 1000;
  await db.execute(sql`update experiments set started_at = '2026-10-01' where id = ${created.id}`);
  await db.execute(sql`insert into convener_attributes (unit, attribute, value)
    select 'u' || u, a, case when a = 'institution' then 'inst-' || (u % 4) else 'seniority-' || (u % 3) end
    from generate_series(0, 4999) u, unnest(array['institution', 'seniority']) a`);
  await db.execute(sql`analyze`);
  await updateAnalysisSettings(db, "cli", "big", {
    engine: "bayesian",
    cuped: true,
    prePeriodDays: 28,
    priorMean: 0,
    guardrails: [
      { metric: "minutesToFinish", direction: "increase", tolerance: 0.1 },
      { metric: "emptyCommitteeShare", direction: "increase", tolerance: 0.1 },
      { metric: "profileOpensPerAdoption", direction: "increase", tolerance: 0.1 },
    ],
  });
  const catchUp = performance.now();
  await refreshEventSessions(db, history.id);
  await refreshEventSessions(db, created.id);
  return { loaded, catchUp: (performance.now() - catchUp) / 1000 };
}

/** What the page's loader does for an A/B experiment, timed: the result, the counts, the composition. */
async function view(db: ReturnType<typeof createDb>["db"], fresh = false) {
  const start = performance.now();
  const experiment = (await getExperiment(db, "big"))!;
  const result = await onlineResult(db, { experiment: "big" }, runInProcess, { fresh });
  const computed = performance.now();
  await armCounts(db, experiment, result.perArm);
  await unknownIdFindings(db, experiment);
  const counted = performance.now();
  await compositionResult(
    db,
    experiment,
    { B: result.parameters.B, seed: result.parameters.seed },
    runInProcess,
  );
  const end = performance.now();
  const s = (a: number, b: number) => ((b - a) / 1000).toFixed(2);
  return {
    seconds: (end - start) / 1000,
    result,
    parts: `result ${s(start, computed)} s, counts ${s(computed, counted)} s, composition ${s(counted, end)} s`,
  };
}

try {
  await applyMigrations(pg.url);
  const { db, sql: client } = createDb(pg.url);
  const { loaded, catchUp } = await setUp(db);
  const first = await view(db);
  const second = await view(db);
  // One new event: the data's version changes, so the next view computes everything anew.
  await db.execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id)
    select 'late', id, 'click', '2026-11-01', 'A', 'u0', 's-late', 'p0', 'c1' from experiments where key = 'big'`);
  await refreshEventSessions(db, (await getExperiment(db, "big"))!.id);
  const changed = await view(db);
  await client.end();
  const d = first.result.decisions!;
  const cuped = d.bayesian.find((x) => x.metric === "ctr")?.cuped;
  console.log(
    JSON.stringify({
      mode: "decision-dashboard",
      seconds: second.seconds,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail:
        `${first.result.events} events; first view ${first.seconds.toFixed(2)} s (${first.parts}), ` +
        `second view ${second.seconds.toFixed(2)} s (${second.parts}), ` +
        `after one new event ${changed.seconds.toFixed(2)} s (${changed.parts}); CUPED on ctr θ ${cuped?.theta.toFixed(3) ?? "—"}, ` +
        `${d.slices.holm.slices.length} subject slices, ${d.convenerSlices.length} convener attributes, ` +
        `${first.result.guardrails.length} guardrails (events generated in ${loaded.toFixed(0)} s, sessions caught up in ${catchUp.toFixed(1)} s)`,
    }),
  );
} finally {
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
