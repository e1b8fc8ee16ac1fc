import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, NODE_ENV: "production", ASSAY_SEED_DEMO: "auto" });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("stops on a bad value with one sentence naming it", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrowError(new ConfigError("Configuration error: PORT Expected number, received nan."));
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrowError(/DATABASE_URL must start with postgres:\/\//);
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrowError(/SESSION_SECRET must be at least 32 characters/);
  });

  it("sizes the worker pool to leave one core to the event loop, or by WORKER_THREADS", async () => {
    const { availableParallelism } = await import("node:os");
    expect(loadConfig({}).workerThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ WORKER_THREADS: "3" }).workerThreads).toBe(3);
    expect(() => loadConfig({ WORKER_THREADS: "0" })).toThrowError(/WORKER_THREADS Number must be greater than or equal to 1/);
    expect(() => loadConfig({ WORKER_THREADS: "1.5" })).toThrowError(/WORKER_THREADS must be a whole number/);
  });

  it("requires SESSION_SECRET for the server in production with an external database, not for the CLI", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:p@h/db" }, { forServer: true })).toThrowError(/SESSION_SECRET is required/);
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@h/db" }).DATABASE_URL).toBe("postgres://u:p@h/db");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@h/db", NODE_ENV: "development" }).DATABASE_URL).toBe("postgres://u:p@h/db");
  });
});
