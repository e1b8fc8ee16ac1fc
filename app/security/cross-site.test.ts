import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { CROSS_SITE, refuseCrossSiteForms } from "./csrf.server";
import type { OriginOptions } from "./origin.server";

/**
 * The origin half of the guard, `refuseCrossSiteForms`, in a real Express app over real HTTP: whatever
 * passes it reaches the next handler, which answers "passed".
 */
const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function appWith(options: OriginOptions): Promise<string> {
  const app = express();
  app.use(refuseCrossSiteForms(options));
  app.all("*", (req, res) => res.send(`passed, origin header ${req.headers.origin ?? "removed"}`));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One request with exactly these headers (fetch would add or drop some). */
function send(host: string, method: string, path: string, headers: Record<string, string>) {
  const [hostname, port] = host.split(":");
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      const request = http.request({ hostname, port: Number(port), method, path, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      });
      request.on("error", reject);
      request.end("name=x");
    },
  );
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded", Cookie: "__assay_session=s" };

describe("refuseCrossSiteForms", () => {
  it("refuses a form from another site (by Origin or Referer) or from nowhere known with a 403 sentence", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const host = await appWith({ trustProxy: false });
    const refused: Record<string, string>[] = [
      { Origin: "http://evil.example" },
      { Origin: "null" },
      { Origin: `https://${host}` },
      { Referer: "http://evil.example/page" },
      {},
      { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example" },
      { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
    ];
    for (const headers of refused) {
      const response = await send(host, "POST", "/admin/users?index", { ...FORM, ...headers });
      expect([response.status, response.body]).toEqual([403, CROSS_SITE]);
    }
    // The one refusal that looks like a proxy's HTTPS in front of a server that was not told is logged, once.
    const hint = /^Refused a form from https:.*set PUBLIC_URL or TRUST_PROXY/;
    expect(warn.mock.calls).toEqual([[expect.stringMatching(hint)]]);
    warn.mockRestore();
    const dataRequest = "/admin/users?index&_data=routes%2Fadmin.users._index";
    const data = await send(host, "POST", dataRequest, { ...FORM, Origin: "http://evil.example" });
    expect([data.status, data.headers["x-remix-catch"], JSON.parse(data.body)]).toEqual([
      403,
      "yes",
      { message: CROSS_SITE },
    ]);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect(
        (await send(host, method, "/admin/users", { ...FORM, Origin: "http://evil.example" })).status,
      ).toBe(403);
    }
  });

  it("lets a form of this site through, told by Origin or by Referer; reads pass untouched", async () => {
    const host = await appWith({ trustProxy: false });
    const same = await send(host, "POST", "/login", { ...FORM, Origin: `http://${host}` });
    expect(same.body).toBe("passed, origin header removed");
    expect(
      (await send(host, "POST", "/login", { ...FORM, Referer: `http://${host}/login?x=1` })).status,
    ).toBe(200);
    expect((await send(host, "GET", "/admin", { Origin: "http://evil.example" })).status).toBe(200);
  });

  it("believes X-Forwarded-Host and -Proto only behind a trusted proxy", async () => {
    const host = await appWith({ trustProxy: true });
    const forwarded = { "X-Forwarded-Host": "assay.example.org", "X-Forwarded-Proto": "https" };
    const proxied = { ...FORM, ...forwarded, Origin: "https://assay.example.org" };
    expect((await send(host, "POST", "/login", proxied)).status).toBe(200);
    expect(
      (await send(host, "POST", "/login", { ...proxied, Origin: "http://assay.example.org" })).status,
    ).toBe(403);
  });

  it("with PUBLIC_URL, accepts that origin only, whatever Host the proxy sends", async () => {
    const host = await appWith({ trustProxy: false, publicUrl: "https://assay.example.org" });
    expect(
      (await send(host, "POST", "/login", { ...FORM, Origin: "https://assay.example.org" })).status,
    ).toBe(200);
    expect((await send(host, "POST", "/login", { ...FORM, Origin: `http://${host}` })).status).toBe(403);
  });

  it("lets a key-authenticated API call through (under /api/, no cookie), not one with a cookie", async () => {
    const host = await appWith({ trustProxy: false });
    const api = { Authorization: "Bearer key", "Content-Type": "application/json" };
    expect((await send(host, "POST", "/api/events", api)).status).toBe(200);
    expect((await send(host, "POST", "/api/events", { ...api, Cookie: "__assay_session=s" })).status).toBe(
      403,
    );
    expect((await send(host, "POST", "/apiary", { ...FORM })).status).toBe(403);
  });
});
