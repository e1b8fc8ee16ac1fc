import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createDb } from "../../db/platform/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "../../db/platform/embedded";
import { applyMigrations } from "../../db/migrate";
import { importFile } from "../../db/import";
import { createApiKey, createExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { assignUnit } from "../../scripts/assign/assign";

/**
 * The database stops while a batch is sent: the API answers 503 and stores nothing; the same batch
 * sent after the restart stores everything. Its own PostgreSQL, since this one is stopped on purpose.
 */
let dataDir = "";
let server: EmbeddedServer;
let port = 0;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-outage-"));
  await fs.chmod(dataDir, 0o755);
  server = await startEmbeddedPostgres({ dataDir });
  port = server.port;
  await applyMigrations(server.url);
  process.env.DATABASE_URL = server.url;
});
afterAll(async () => {
  await server.stop().catch(() => {});
  await fs.rm(dataDir, { recursive: true, force: true });
});

it("answers 503 while the database is down, stores nothing, and the retry stores the batch", async () => {
  const { db, sql } = createDb(server.url, { max: 1 });
  await importFile(db, "cli", "systems", "key\nbm25\ndense", "csv");
  await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: "outage",
      name: "Outage",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(db, "cli", "outage", "running");
  const { key } = await createApiKey(db, "cli", "outage");
  await sql.end();
  const { action } = await import("./api.events");
  const arm = (unit: string) => ["A", "B"][assignUnit("outage", unit, [0.5, 0.5]).arm];
  const batch = Array.from({ length: 50 }, (_, i) => ({
    eventId: randomUUID(),
    type: "click",
    at: new Date().toISOString(),
    experiment: "outage",
    arm: arm(`u${i}`),
    unitId: `u${i}`,
    sessionId: "s",
    proposalId: "p",
    candidateId: "c",
  }));
  const send = () => {
    const request = new Request("http://localhost/api/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify({ events: batch }),
    });
    return action({ request, params: {}, context: { cspNonce: "", ip: "" } });
  };
  await server.stop();
  const down = await send();
  expect(down.status).toBe(503);
  expect((await down.json()).error).toMatch(/nothing was stored\. Retry the batch/);
  server = await startEmbeddedPostgres({ dataDir, EMBEDDED_PG_PORT: port });
  const before = createDb(server.url, { max: 1 });
  expect((await before.sql`select count(*)::int as n from events`)[0].n).toBe(0);
  await before.sql.end();
  // As a sender does: retry the batch while the answer is 503. The pool lets one probe through at a time
  // after a failed connection (db/platform/connection-gate.ts), so the first retry may still meet the closed gate.
  let up = await send();
  for (const deadline = Date.now() + 10_000; up.status === 503 && Date.now() < deadline; up = await send()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(up.status).toBe(200);
  expect(await up.json()).toEqual({ accepted: 50, duplicates: 0, rejected: [] });
  const check = createDb(server.url, { max: 1 });
  const [row] = await check.sql`select count(*)::int as n from events`;
  expect(row.n).toBe(50);
  await check.sql.end();
});
