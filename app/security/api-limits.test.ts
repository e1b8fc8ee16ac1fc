import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { API_BODY_LIMIT, apiLimits } from "./api-limits.server";

/** A real HTTP server with the limits in front of a route that answers 200 without reading the body. */
async function serve(options: { perKey: number; perAddress: number }) {
  const app = express();
  let reached = 0;
  app.use(apiLimits(options));
  app.all("*", (_req, res) => void (reached++, res.json({ ok: true })));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, reached: () => reached, close: () => new Promise((resolve) => server.close(resolve)) };
}

const post = (url: string, key: string, body = "{}") =>
  fetch(`${url}/api/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body,
  });

describe("the API's limits", () => {
  it("answers 429 with Retry-After past the per-key limit, and counts each key apart", async () => {
    const app = await serve({ perKey: 3, perAddress: 100 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(app.url, "key-a")).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await post(app.url, "key-a");
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(refused.headers.get("Cache-Control")).toBe("no-store");
      expect((await refused.json()).error).toMatch(/^Too many requests; try again in \d+ seconds\.$/);
      expect((await post(app.url, "key-b")).status).toBe(200);
      expect(app.reached()).toBe(4);
    } finally {
      await app.close();
    }
  });

  it("limits an address whatever keys it tries, and the assignment API too", async () => {
    const app = await serve({ perKey: 100, perAddress: 2 });
    try {
      expect((await post(app.url, "k1")).status).toBe(200);
      const assignment = await fetch(`${app.url}/api/experiments/x/assignment?unit=u`, {
        headers: { Authorization: "Bearer k2" },
      });
      expect(assignment.status).toBe(200);
      expect((await post(app.url, "k3")).status).toBe(429);
      // Pages are not counted.
      expect((await fetch(`${app.url}/analyst`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("refuses a declared oversized body with 413 before the route or the key check, never a reset", async () => {
    const app = await serve({ perKey: 100, perAddress: 100 });
    try {
      const body = "a".repeat(5 * 1024 * 1024);
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(`${app.url}/api/events`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        });
        request.on("response", (response) => resolve(response.statusCode!));
        request.on("error", reject);
        request.end(body);
      });
      expect(status).toBe(413);
      expect(app.reached()).toBe(0);
      expect((await post(app.url, "k", "x".repeat(API_BODY_LIMIT))).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
