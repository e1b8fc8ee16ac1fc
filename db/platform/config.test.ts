import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, NODE_ENV: "production", ASSAY_SEED_DEMO: "auto" });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("stops on a bad value with one sentence naming it", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrowError(
      new ConfigError("Configuration error: PORT Expected number, received nan."),
    );
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrowError(
      /DATABASE_URL must start with postgres:\/\//,
    );
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrowError(
      /SESSION_SECRET must be at least 32 characters/,
    );
  });

  it("sizes the worker pool to leave one core to the event loop, or by WORKER_THREADS", async () => {
    const { availableParallelism } = await import("node:os");
    expect(loadConfig({}).workerThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ WORKER_THREADS: "3" }).workerThreads).toBe(3);
    expect(() => loadConfig({ WORKER_THREADS: "0" })).toThrowError(
      /WORKER_THREADS Number must be greater than or equal to 1/,
    );
    expect(() => loadConfig({ WORKER_THREADS: "1.5" })).toThrowError(/WORKER_THREADS must be a whole number/);
  });

  it("requires SESSION_SECRET for the server in production with an external database, not for the CLI", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:p@h/db" }, { forServer: true })).toThrowError(
      /SESSION_SECRET is required/,
    );
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@h/db" }).DATABASE_URL).toBe("postgres://u:p@h/db");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@h/db", NODE_ENV: "development" }).DATABASE_URL).toBe(
      "postgres://u:p@h/db",
    );
  });

  it("reads the session lifetimes, 8 idle hours and 7 days by default, and refuses nonsense", () => {
    expect(loadConfig({})).toMatchObject({ SESSION_IDLE_HOURS: 8, SESSION_MAX_DAYS: 7 });
    expect(loadConfig({ SESSION_IDLE_HOURS: "0.5", SESSION_MAX_DAYS: "30" })).toMatchObject({
      SESSION_IDLE_HOURS: 0.5,
      SESSION_MAX_DAYS: 30,
    });
    expect(() => loadConfig({ SESSION_IDLE_HOURS: "0" })).toThrowError(
      "Configuration error: SESSION_IDLE_HOURS must be more than 0 hours.",
    );
    expect(() => loadConfig({ SESSION_IDLE_HOURS: "eight" })).toThrowError(
      /SESSION_IDLE_HOURS Expected number/,
    );
    expect(() => loadConfig({ SESSION_MAX_DAYS: "-1" })).toThrowError(
      "Configuration error: SESSION_MAX_DAYS must be more than 0 days.",
    );
    expect(() => loadConfig({ SESSION_MAX_DAYS: "365" })).toThrowError(
      "Configuration error: SESSION_MAX_DAYS must be at most 90 days.",
    );
  });

  it("takes PUBLIC_URL as an http(s) origin and refuses anything else with a sentence", () => {
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://Assay.Example.org/" }).PUBLIC_URL).toBe(
      "https://assay.example.org",
    );
    expect(loadConfig({ PUBLIC_URL: "http://localhost:3000" }).PUBLIC_URL).toBe("http://localhost:3000");
    const sentence =
      "Configuration error: PUBLIC_URL must be the http(s) address people open Assay at, like https://assay.example.org, without a path.";
    const bad = [
      "assay.example.org",
      "ftp://assay.example.org",
      "https://assay.example.org/app",
      "https://u:p@assay.example.org",
      "https://x.org/?a=1",
    ];
    for (const value of bad)
      expect(() => loadConfig({ PUBLIC_URL: value })).toThrowError(new ConfigError(sentence));
  });

  it("takes TRUST_PROXY as a number of proxies, true (one) or false (none)", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(["true", "false", "2"].map((value) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY)).toEqual([
      1, 0, 2,
    ]);
    expect(() => loadConfig({ TRUST_PROXY: "yes" })).toThrowError(
      new ConfigError(
        "Configuration error: TRUST_PROXY must be how many reverse proxies stand in front of Assay (usually 1), true or false.",
      ),
    );
  });

  it("takes single sign-on as all three OIDC variables or none, with an http(s) issuer", () => {
    const sso = {
      OIDC_ISSUER: "https://login.example.org/realms/acme",
      OIDC_CLIENT_ID: "assay",
      OIDC_CLIENT_SECRET: "s",
    };
    expect(loadConfig(sso).OIDC_ISSUER).toBe("https://login.example.org/realms/acme");
    expect(() => loadConfig({ ...sso, OIDC_CLIENT_SECRET: "" })).toThrowError(
      new ConfigError(
        "Configuration error: single sign-on needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.",
      ),
    );
    expect(() => loadConfig({ ...sso, OIDC_ISSUER: "login.example.org" })).toThrowError(
      new ConfigError(
        "Configuration error: OIDC_ISSUER must be the provider's issuer URL, like https://login.example.org/realms/acme.",
      ),
    );
  });
});
