import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import client from "prom-client";

/**
 * What an operator scrapes at /metrics (Prometheus text format): requests and their latency per route
 * group, events accepted, rejected and duplicated, the worker pool's queue, the database pool's use and
 * the build version. Metrics live in prom-client's default registry, which server.ts and the Remix
 * bundle share (prom-client is not bundled), so each is made once: the first module to ask makes it.
 */
function once<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

const requests = once(
  "assay_http_requests_total",
  () =>
    new client.Counter({
      name: "assay_http_requests_total",
      help: "HTTP requests answered, by route group, method and status class.",
      labelNames: ["group", "method", "status"],
    }),
);
const latency = once(
  "assay_http_request_duration_seconds",
  () =>
    new client.Histogram({
      name: "assay_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route group.",
      labelNames: ["group"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);
const events = once(
  "assay_events_total",
  () =>
    new client.Counter({
      name: "assay_events_total",
      help: "Events received by POST /api/events, by outcome.",
      labelNames: ["outcome"],
    }),
);

/** Counts a batch's outcome (the events API's answer). */
export function countEvents(result: { accepted: number; duplicates: number; rejected: unknown[] }) {
  events.inc({ outcome: "accepted" }, result.accepted);
  events.inc({ outcome: "duplicated" }, result.duplicates);
  events.inc({ outcome: "rejected" }, result.rejected.length);
}

/** A gauge read when scraped. */
export function gaugeOf(name: string, help: string, read: () => number) {
  once(
    name,
    () =>
      new client.Gauge({
        name,
        help,
        collect() {
          this.set(read());
        },
      }),
  );
}

/**
 * A route's group: its first path segment (api, analyst, admin, expert, convener…), with the API by
 * endpoint; never the full path, whose ids would make a series per proposal or key.
 */
export function routeGroup(path: string): string {
  if (path === "/api/events") return "api-events";
  if (/^\/api\/experiments\/[^/]+\/assignment$/.test(path)) return "api-assignment";
  const first = path.split("/")[1] ?? "";
  return /^[a-z][a-z-]{0,30}$/.test(first) ? first : first === "" ? "home" : "other";
}

/**
 * Express middleware, first of all: gives the request an id (echoed as X-Request-Id), and when the answer
 * is done counts it, observes its latency and writes one JSON line: time, id, method, route group, path
 * (without its query, which can carry a unit id or a token), status and milliseconds. Nothing about the
 * person or the body.
 */
export function observeRequests(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  const id = crypto.randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  res.on("finish", () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const group = routeGroup(req.path);
    requests.inc({ group, method: req.method, status: `${Math.floor(res.statusCode / 100)}xx` });
    latency.observe({ group }, seconds);
    if (group === "healthz" || group === "build") return;
    console.log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: res.statusCode >= 500 ? "error" : "info",
        requestId: id,
        method: req.method,
        group,
        path: req.path.slice(0, 200),
        status: res.statusCode,
        ms: Math.round(seconds * 1000),
      }),
    );
  });
  next();
}

/**
 * GET /metrics: with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); without a
 * token configured, only from the addresses in `allowFrom` (by default this machine). Else 404, as if
 * there were no such page.
 */
export function metricsEndpoint(options: { token?: string; allowFrom: string[]; version: string }) {
  once(
    "assay_build_info",
    () => new client.Gauge({ name: "assay_build_info", help: "The running build.", labelNames: ["version"] }),
  ).set({ version: options.version }, 1);
  return async (req: Request, res: Response) => {
    if (!allowed(req, options)) return void res.status(404).set("Cache-Control", "no-store").end();
    res
      .set({ "Content-Type": client.register.contentType, "Cache-Control": "no-store" })
      .send(await client.register.metrics());
  };
}

function allowed(req: Request, options: { token?: string; allowFrom: string[] }) {
  if (options.token) {
    const given = Buffer.from(req.get("Authorization") ?? "");
    const expected = Buffer.from(`Bearer ${options.token}`);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
  const ip = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  return options.allowFrom.includes(ip);
}
