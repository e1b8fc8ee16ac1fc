import { createTestDatabase } from "../../test/database";
import { freePort } from "../../db/platform/embedded";

describe("GET /healthz", () => {
  it("answers 200 with db up when the database answers", async () => {
    const t = await createTestDatabase();
    process.env.DATABASE_URL = t.url;
    const { loader } = await import("./healthz");
    const response = await loader();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: "up" });
    await t.drop();
  });
});

describe("GET /healthz without a database", () => {
  it("answers 503 with db down", async () => {
    vi.resetModules();
    process.env.DATABASE_URL = `postgres://nobody:x@127.0.0.1:${await freePort()}/none`;
    const { loader } = await import("./healthz");
    const response = await loader();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, db: "down" });
  });
});
