import type { AddressInfo } from "node:net";
import express from "express";
import { noStoreByDefault } from "./no-store.server";

describe("no-store by default", () => {
  it("marks every answer no-store unless the route set its own caching", async () => {
    const app = express();
    app.use(noStoreByDefault);
    app.get("/analyst", (_req, res) => void res.send("<h1>figures</h1>"));
    app.get("/export", (_req, res) => void res.set("Cache-Control", "private, max-age=60").send("a,b"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/analyst`)).headers.get("Cache-Control")).toBe("no-store");
      expect((await fetch(`${url}/missing`)).headers.get("Cache-Control")).toBe("no-store");
      expect((await fetch(`${url}/export`)).headers.get("Cache-Control")).toBe("private, max-age=60");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
