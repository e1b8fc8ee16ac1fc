import type { AddressInfo } from "node:net";
import express from "express";
import { countEvents, metricsEndpoint, observeRequests, routeGroup } from "./metrics.server";

async function serve(options: { token?: string; allowFrom: string[] }) {
  const app = express();
  app.use(observeRequests);
  app.get("/metrics", metricsEndpoint({ ...options, version: "9.9.9" }));
  app.all("*", (_req, res) => void res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("/metrics", () => {
  it("counts requests by route group, times them, counts events, and logs one JSON line with a request id", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const app = await serve({ token: "a-token-of-sixteen-chars", allowFrom: [] });
    try {
      const page = await fetch(`${app.url}/analyst/experiments/secret-key?unit=u-123`);
      await fetch(`${app.url}/api/experiments/x/assignment`);
      countEvents({ accepted: 5, duplicates: 2, rejected: [{}] });
      const text = await (
        await fetch(`${app.url}/metrics`, { headers: { Authorization: "Bearer a-token-of-sixteen-chars" } })
      ).text();
      expect(text).toMatch(/assay_http_requests_total\{group="analyst",method="GET",status="2xx"\} 1/);
      expect(text).toMatch(/assay_http_requests_total\{group="api-assignment",method="GET",status="2xx"\} 1/);
      expect(text).toMatch(/assay_http_request_duration_seconds_count\{group="analyst"\} 1/);
      expect(text).toMatch(/assay_events_total\{outcome="accepted"\} 5/);
      expect(text).toMatch(/assay_events_total\{outcome="duplicated"\} 2/);
      expect(text).toMatch(/assay_events_total\{outcome="rejected"\} 1/);
      expect(text).toMatch(/assay_build_info\{version="9.9.9"\} 1/);
      const logged = JSON.parse(lines.find((l) => l.includes('"analyst"'))!);
      expect(logged).toMatchObject({ method: "GET", group: "analyst", status: 200 });
      expect(logged.requestId).toBe(page.headers.get("X-Request-Id"));
      expect(lines.join("\n")).not.toContain("u-123"); // the query stays out of the log
    } finally {
      spy.mockRestore();
      await app.close();
    }
  });

  it("is a 404 without the token, or from an address not allowed", async () => {
    const withToken = await serve({ token: "a-token-of-sixteen-chars", allowFrom: ["127.0.0.1"] });
    const byAddress = await serve({ allowFrom: ["10.0.0.1"] });
    try {
      expect((await fetch(`${withToken.url}/metrics`)).status).toBe(404);
      const wrong = { headers: { Authorization: "Bearer a-token-of-sixteen-chaRS" } };
      expect((await fetch(`${withToken.url}/metrics`, wrong)).status).toBe(404);
      expect((await fetch(`${byAddress.url}/metrics`)).status).toBe(404);
    } finally {
      await withToken.close();
      await byAddress.close();
    }
  });

  it("groups routes without ids", () => {
    expect(routeGroup("/api/events")).toBe("api-events");
    expect(routeGroup("/expert/campaigns/12/tasks/3")).toBe("expert");
    expect(routeGroup("/")).toBe("home");
    expect(routeGroup("/%00weird")).toBe("other");
  });
});
