import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createDb } from "../../db/platform/client";
import { benchServer } from "./server";
import { importFile } from "../../db/import";
import {
  createApiKey,
  createExperiment,
  getExperiment,
  setExperimentStatus,
} from "../../db/experiments/experiments";
import { events } from "../../db/schema";
import { experimentSchema } from "../inputs/experiments";
import { assignUnit } from "../assign/assign";

/**
 * POST /api/events for BENCH_SECONDS (default 60) with 4 concurrent clients sending batches of 100
 * fresh events to the production build; then a count of what was stored (nothing lost, nothing
 * twice), and a bulk INSERT of as many events straight into the table (the floor) for the ratio.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
let key = "";
const { base, databaseUrl, stop } = await benchServer(async (url) => {
  const { db, sql } = createDb(url);
  await importFile(db, "cli", "systems", "key\nbaseline\nchallenger", "csv");
  await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: "bench",
      name: "Bench",
      arms: [
        { key: "A", system: "baseline", weight: 0.5 },
        { key: "B", system: "challenger", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(db, "cli", "bench", "running");
  key = (await createApiKey(db, "cli", "bench")).key;
  await sql.end();
});
try {
  const { db, sql } = createDb(databaseUrl);
  const units = Array.from({ length: 2000 }, (_, i) => `bench-unit-${i}`);
  const armOf = new Map(units.map((u) => [u, ["A", "B"][assignUnit("bench", u, [0.5, 0.5]).arm]]));
  const makeBatch = () =>
    Array.from({ length: 100 }, () => {
      const unit = units[Math.floor(Math.random() * units.length)];
      return {
        eventId: randomUUID(),
        type: "click",
        at: new Date().toISOString(),
        experiment: "bench",
        arm: armOf.get(unit)!,
        unitId: unit,
        sessionId: `${unit}-s`,
        proposalId: "p-1",
        candidateId: "c-1",
      };
    });
  const post = (batch: unknown[]) =>
    fetch(`${base}/api/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify({ events: batch }),
    });
  const statuses: number[] = [];
  const latencies: number[] = [];
  let sent = 0;
  let accepted = 0;
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < deadline) {
        const batch = makeBatch();
        const t = performance.now();
        let response = await post(batch);
        // A real client retries a 5xx with the same batch: already-stored events come back as duplicates.
        while (response.status >= 500) {
          failures++;
          statuses.push(response.status);
          response = await post(batch);
        }
        latencies.push(performance.now() - t);
        const result = (await response.json()) as {
          accepted: number;
          duplicates: number;
          rejected: unknown[];
        };
        sent += batch.length;
        accepted += result.accepted + result.duplicates;
        if (result.rejected.length)
          throw new Error(`the API rejected bench events: ${JSON.stringify(result.rejected.slice(0, 2))}`);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const [{ n: stored }] = await sql`select count(*)::int as n from events`;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const rate = accepted / elapsed;

  // The floor: the same number of events straight into the same table, in 1,000-row INSERTs.
  const experiment = (await getExperiment(db, "bench"))!;
  const rows = Array.from({ length: stored }, () => ({
    eventId: randomUUID(),
    experimentId: experiment.id,
    type: "click",
    at: new Date().toISOString(),
    arm: "A",
    unit: "u",
    sessionId: "s",
    proposalId: "p",
    candidateId: "c",
  }));
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += 1000) await db.insert(events).values(rows.slice(i, i + 1000));
  const bulkRate = rows.length / ((performance.now() - t0) / 1000);
  await sql.end();
  console.log(
    JSON.stringify({
      mode: "api",
      seconds: elapsed,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      rate,
      lost: sent - stored,
      detail: `${Math.round(rate)} events/s over ${elapsed.toFixed(0)} s; sent ${sent}, stored ${stored} (${sent - stored} lost/duplicated), ${failures} retried batches${statuses.length ? ` (${[...new Set(statuses)].join(", ")})` : ""}; p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms; bulk INSERT ${Math.round(bulkRate)} events/s, API/bulk = ${(rate / bulkRate).toFixed(2)}`,
    }),
  );
} finally {
  await stop();
}
