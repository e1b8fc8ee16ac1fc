import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { requestHygiene, urlProblem } from "./request-hygiene.server";

/** URLs that would otherwise reach a loader as undecodable text or with a NUL (a 500 from PostgreSQL). */
const refused = [
  "/admin/proposals/%00",
  "/admin/proposals/P-1%00x",
  "/admin/proposals/%E0%A4%A",
  "/admin/proposals/%",
  "/admin/proposals/%zz",
  "/admin/proposals/%FF",
  "/admin/proposals/%C0%80",
  "/admin/users?q=%00",
  "/admin/users?q=%",
  "/admin/users?q=100%",
  "/admin/proposals?page=%E0%A4%A",
  "/admin/proposals?sort%00=x",
  "/analyst?B=%ED%A0%80",
];
const accepted = [
  "/",
  "/admin/proposals/P-100",
  "/admin/proposals/P%2F100",
  "/admin/users?q=%25",
  "/admin/users?q=J%C3%BCrgen+M",
  "/analyst?B=1000&seed=a%20b",
];

let server: http.Server;
let port = 0;
beforeAll(async () => {
  const app = express();
  app.use(requestHygiene);
  app.all("*", (_req, res) => res.send("reached the app"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A raw GET: the path goes out byte for byte, as a hand-made link would send it. */
function get(path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }),
        );
      })
      .on("error", reject);
  });
}

describe("request hygiene", () => {
  it.each(refused)("refuses %s on a page with a 400 and an HTML sentence", async (path) => {
    const { status, type, body } = await get(path);
    expect(status).toBe(400);
    expect(type).toMatch(/text\/html/);
    expect(body).toMatch(
      /<p>The address (has a malformed percent-encoding|contains a NUL character)[^<]*\.<\/p>/,
    );
  });

  it.each(refused.map((p) => p.replace(/^\/\w+/, "/api/v")))(
    "refuses %s in the API with a 400 and a JSON error",
    async (path) => {
      const { status, type, body } = await get(path);
      expect(status).toBe(400);
      expect(type).toMatch(/application\/json/);
      expect(JSON.parse(body).error).toMatch(/^The address .+\.$/);
    },
  );

  it.each(accepted)("lets %s through", async (path) => {
    expect(await get(path)).toMatchObject({ status: 200, body: "reached the app" });
  });

  it("names what was wrong", () => {
    expect(urlProblem("/a/%00")).toMatch(/NUL character/);
    expect(urlProblem("/a/%E0%A4%A")).toMatch(/malformed percent-encoding/);
    expect(urlProblem("/a/%C3%BC")).toBeNull();
  });
});
