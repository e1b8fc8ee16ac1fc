import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../../db/import";
import { createApiKey, createExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { DRAIN_BYTES } from "~/security/api.server";
import { assignUnit } from "../../scripts/assign/assign";

/**
 * The events route behind a real HTTP server (Express and Remix's adapter, as server.ts runs it), so
 * that a body over the limit is seen as a client sees it: a 413 with a sentence, not a reset.
 */
let t: TestDatabase;
let server: http.Server;
let base = "";
let key = "";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  await importFile(t.db, "cli", "systems", "key\nbm25\ndense", "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "wire",
      name: "Wire",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "wire", "running");
  key = (await createApiKey(t.db, "cli", "wire")).key;
  const route = await import("./api.events");
  // The smallest build Remix serves: a root without a module and the events route under it.
  const build = {
    mode: "production",
    entry: { module: { default: () => new Response("no documents here", { status: 404 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/api.events": { id: "routes/api.events", parentId: "root", path: "api/events", module: route },
    },
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "test" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {},
    isSpaMode: false,
  } as unknown as ServerBuild;
  const app = express();
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext: () => ({ cspNonce: "", ip: "127.0.0.1" }),
    }),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.drop();
});

/** A chunked body (no Content-Length) of `total` bytes, sent in 64 KB pieces as the client writes them. */
function chunked(total: number, head = '{"events": [{"pad": "') {
  const piece = new Uint8Array(64 * 1024).fill(120);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(new TextEncoder().encode(head));
        sent = head.length;
      } else if (sent < total) {
        controller.enqueue(piece);
        sent += piece.length;
      } else controller.close();
    },
  });
}
const send = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/events`, {
    method: "POST",
    body,
    duplex: "half",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}`, ...headers },
  } as RequestInit);
const stored = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from events`))[0].n;

describe("POST /api/events over HTTP", () => {
  it("stores a batch sent chunked", async () => {
    const arm = ["A", "B"][assignUnit("wire", "u", [0.5, 0.5]).arm];
    const event = {
      eventId: randomUUID(),
      type: "click",
      at: new Date().toISOString(),
      experiment: "wire",
      arm,
      unitId: "u",
      sessionId: "s",
      proposalId: "p",
      candidateId: "c",
    };
    const body = new TextEncoder().encode(JSON.stringify({ events: [event] }));
    const response = await send(new ReadableStream({ start: (c) => (c.enqueue(body), c.close()) }));
    expect(response.status).toBe(200);
    expect((await response.json()).rejected).toEqual([]);
  });

  it.each([
    // Read to its end and discarded, the connection stays usable; past the bound it is closed after the answer.
    ["a 2 MB chunked body", () => chunked(2 * 1024 * 1024), "keep-alive"],
    ["a chunked body past what is drained", () => chunked(DRAIN_BYTES + 4 * 1024 * 1024), "close"],
    ["a 2 MB body with its Content-Length", () => new Uint8Array(2 * 1024 * 1024).fill(32), "keep-alive"],
    ["a Content-Length past what is drained", () => new Uint8Array(DRAIN_BYTES + 1).fill(32), "close"],
  ] as const)(
    "answers %s with a 413 the client receives, storing nothing",
    async (_name, body, connection) => {
      const before = await stored();
      const response = await send(body());
      expect(response.status).toBe(413);
      expect(response.headers.get("Connection")).toBe(connection);
      expect((await response.json()).error).toBe("The body is larger than 1 MB; send smaller batches.");
      expect(await stored()).toBe(before);
    },
  );

  it("keeps serving the same client after a refused body", async () => {
    expect((await send(chunked(3 * 1024 * 1024))).status).toBe(413);
    const ok = await send('{"events": []}');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ accepted: 0, duplicates: 0, rejected: [] });
  });
});
