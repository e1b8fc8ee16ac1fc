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
import { armCounts, unknownIdFindings } from "../../db/experiments/experiment-stats";
import { sqlStreamTotals } from "../../db/experiments/online-sql";
import { refreshEventSessions } from "../../db/experiments/event-sessions";
import { cumulativeDailyFromSessions, reportFromTotals } from "../online/report";
import { experimentSchema } from "../inputs/experiments";
import { generateEvents } from "./dashboard-data";

/**
 * The online dashboard's server work for an experiment of 1,000,000 events (125,000 sessions of one
 * impression of 20, five clicks and two adopts), generated in SQL. The catch-up of the per-session
 * table after that one big insert (what the server's refresher does in the background) is timed on
 * its own; then what the page's loader does: read the sessions, the report with its bootstrap and
 * permutation p-values, the counts per arm and the unknown-id findings.
 */
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-dash-"));
await fs.chmod(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir });
try {
  await applyMigrations(pg.url);
  const { db, sql: client } = createDb(pg.url);
  await importFile(db, "cli", "systems", "key\nbaseline\nchallenger", "csv");
  const created = await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: "big",
      name: "Big",
      arms: [
        { key: "A", system: "baseline", weight: 0.5 },
        { key: "B", system: "challenger", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  const t0 = performance.now();
  await generateEvents(db, created.id, { sessions: 125_000, from: "2026-10-01" });
  const loaded = (performance.now() - t0) / 1000;
  await db.execute(sql`analyze events`);
  const experiment = (await getExperiment(db, "big"))!;
  const caughtUp = performance.now();
  const refreshed = await refreshEventSessions(db, experiment.id);
  const catchUp = (performance.now() - caughtUp) / 1000;
  const start = performance.now();
  const totals = await sqlStreamTotals(db, experiment);
  const aggregated = performance.now();
  const report = reportFromTotals(totals, {
    weights: { A: 0.5, B: 0.5 },
    control: "A",
    intervals: true,
    B: 1000,
    seed: "big",
  });
  const reported = performance.now();
  await armCounts(db, experiment, totals.perArm);
  await unknownIdFindings(db, experiment);
  const counted = performance.now();
  cumulativeDailyFromSessions(totals.sessions);
  const seconds = (performance.now() - start) / 1000;
  await client.end();
  console.log(
    JSON.stringify({
      mode: "dashboard",
      seconds,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail: `${totals.events} events, ${totals.sessions.length} sessions; reading the sessions ${((aggregated - start) / 1000).toFixed(2)} s, report with CIs ${((reported - aggregated) / 1000).toFixed(2)} s, counts and findings ${((counted - reported) / 1000).toFixed(2)} s, all server work ${seconds.toFixed(2)} s (events generated in ${loaded.toFixed(0)} s; ${refreshed} sessions caught up at once in ${catchUp.toFixed(1)} s); CTR A ${report.arms.A.ctr!.toFixed(4)}`,
    }),
  );
} finally {
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
