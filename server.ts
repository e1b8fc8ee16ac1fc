import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { ConfigError, loadConfig, type Config } from "./db/platform/config";
import { createDb } from "./db/platform/client";
import { connectDatabase } from "./db/platform/connect";
import { embeddedAppUrl } from "./db/platform/app-role";
import { applyMigrations, underStartLock } from "./db/migrate";
import { DEMO_PASSWORD, demoUsers, isDatabaseEmpty, seedDemo } from "./scripts/demo/seed";
import { guardKnownPasswords, isLoopback } from "./db/accounts/known-passwords";
import { demoSummary } from "./scripts/demo/generate";
import { startSessionRefresher } from "./db/experiments/event-session-refresher";
import { guardActions, refuseCrossSiteForms } from "./app/security/csrf.server";
import { requestHygiene } from "./app/security/request-hygiene.server";
import { apiLimits } from "./app/security/api-limits.server";
import { noStoreByDefault } from "./app/security/no-store.server";
import { withDatabaseOutages } from "./app/utils/database-outage.server";
import { closeWorkerPool } from "./app/results/worker-pool.server";
import { logError } from "./scripts/lib/log";
import { gaugeOf, metricsEndpoint, observeRequests } from "./app/utils/metrics.server";
import { workerPoolQueue } from "./app/results/worker-pool.server";

/** Stops the embedded database this process started, if any: a failed start must not leave it behind. */
let closeDatabase = async () => {};

async function main() {
  const config = loadConfig(process.env, { forServer: true });
  const connection = await connectDatabase(config);
  closeDatabase = () => connection.close();
  const embedded = connection.embedded ? connection : null;
  const databaseUrl = connection.url;
  await applyMigrations(config.MIGRATE_DATABASE_URL ?? databaseUrl);

  let seeded = false;
  let exposed: string[] = [];
  // Under the start lock: of two processes starting at once, one seeds and the other finds it done. A
  // refusal to start stops the embedded database too (main's catch), rather than leave it running alone.
  await underStartLock(databaseUrl, async (db) => {
    const seedWanted = config.ASSAY_SEED_DEMO === "always" || (embedded && config.ASSAY_SEED_DEMO === "auto");
    if (seedWanted && (await isDatabaseEmpty(db))) {
      console.log("Empty database: loading the demo data set…");
      console.log(`Loaded ${demoSummary(await seedDemo(db))}.`);
      seeded = true;
    }
    // A demo account's known password: production beyond this machine refuses to start; elsewhere it must change.
    const demo = { emails: demoUsers.map((u) => u.email), password: DEMO_PASSWORD };
    const server = { production: config.NODE_ENV === "production", host: config.HOST };
    exposed = await guardKnownPasswords(db, demo, server);
  });

  // Least privilege: the app itself runs as assay_app on the embedded cluster (the owner migrated and
  // seeded above); with DATABASE_URL it runs as that URL's role, migrations as MIGRATE_DATABASE_URL's.
  const appUrl = embedded ? await embeddedAppUrl(databaseUrl, config.dataDir) : databaseUrl;
  // The Remix build reads its settings from the environment, so it sees what was decided here.
  process.env.DATABASE_URL = appUrl;
  process.env.SESSION_SECRET = config.SESSION_SECRET ?? (await storedSecret(config));
  process.env.NODE_ENV = config.NODE_ENV;

  // Outermost, the outage answer: it also covers what the guard runs before an action (`beforeBody`).
  const remixBuild = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
  const build = withDatabaseOutages(guardActions(remixBuild));
  const app = createApp(build, config);
  const stopMetrics = await databaseGauges(appUrl);
  const stopRefresher = startSessionRefresher(appUrl);
  const server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const url = `http://localhost:${port}`;
    console.log(`\nAssay is running at ${url}`);
    if (embedded) {
      console.log(
        `Database: embedded PostgreSQL (data in ${path.join(config.dataDir, "postgres")})${seeded ? ", demo data loaded" : ""}.`,
      );
      console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
      for (const role of ["admin", "analyst", "expert", "convener"] as const) {
        console.log(`  ${role.padEnd(9)} ${demoUsers.find((u) => u.roles.includes(role))!.email}`);
      }
      if (exposed.length > 0 && !isLoopback(config.HOST))
        console.log(
          `Reachable from the network (${config.HOST}): each demo login must choose a new password first.`,
        );
    }
  });

  let stopping = false;
  // Stops taking connections, lets the requests in flight finish (idle keep-alive connections are closed,
  // busy ones after their response; past 20 s, all), then the workers and the embedded database.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing the requests in flight, then stopping.`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 20_000);
    await closed;
    clearTimeout(force);
    await stopRefresher();
    await closeWorkerPool();
    await stopMetrics();
    await connection.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

function createApp(build: ServerBuild, config: Config) {
  const app = express();
  app.disable("x-powered-by");
  app.use(observeRequests);
  // Forwarded headers (client address, host, protocol) are believed only from the proxies configured.
  if (config.TRUST_PROXY > 0) app.set("trust proxy", config.TRUST_PROXY);
  app.use(compression());
  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      // Remix inlines its hydration scripts: they carry this request's nonce; nothing may eval.
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          "connect-src": ["'self'"],
          "frame-ancestors": ["'none'"],
          // Sign-out after a single sign-on redirects the form's POST to the provider's end-session
          // endpoint, which a browser checks against form-action.
          "form-action": ["'self'", ...(config.OIDC_ISSUER ? [new URL(config.OIDC_ISSUER).origin] : [])],
          "upgrade-insecure-requests": null,
        },
      },
      strictTransportSecurity: config.NODE_ENV === "production" && !!config.DATABASE_URL,
      crossOriginEmbedderPolicy: false,
      // Not helmet's "no-referrer": under it Chromium sends "Origin: null" with a script-less form post,
      // which the origin check must refuse. Same-origin requests keep their origin; other sites learn none.
      referrerPolicy: { policy: "same-origin" },
    }),
  );
  app.get(
    "/metrics",
    metricsEndpoint({ token: config.METRICS_TOKEN, allowFrom: config.METRICS_ALLOW, version: VERSION }),
  );
  app.use(requestHygiene);
  app.use(apiLimits({ perKey: config.API_RATE_PER_KEY, perAddress: config.API_RATE_PER_ADDRESS }));
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // Every form is checked for its origin, size and CSRF token before any action runs (csrf.server.ts).
  app.use(noStoreByDefault);
  app.use(refuseCrossSiteForms({ publicUrl: config.PUBLIC_URL, trustProxy: config.TRUST_PROXY > 0 }));
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.NODE_ENV,
      getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, ip: req.ip ?? "unknown" }),
    }),
  );
  return app;
}

const VERSION = (JSON.parse(await fs.readFile("package.json", "utf8")) as { version: string }).version;

/**
 * The gauges read when /metrics is scraped: the worker pool's queue, and this database's connections
 * (busy and all) from pg_stat_activity, over one connection of their own.
 */
async function databaseGauges(databaseUrl: string) {
  const { sql } = createDb(databaseUrl, { max: 1 });
  let connections = { busy: 0, open: 0 };
  const refresh = async () => {
    const [row] = await sql<{ busy: number; open: number }[]>`select
      count(*) filter (where state <> 'idle')::int as busy, count(*)::int as open
      from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`;
    connections = row;
  };
  await refresh().catch(() => {});
  const timer = setInterval(() => void refresh().catch(() => {}), 5_000);
  timer.unref();
  gaugeOf("assay_worker_pool_queue", "Heavy tasks waiting for a worker thread.", workerPoolQueue);
  gaugeOf(
    "assay_db_connections_busy",
    "This database's connections running a statement.",
    () => connections.busy,
  );
  gaugeOf("assay_db_connections_open", "This database's open connections.", () => connections.open);
  return async () => {
    clearInterval(timer);
    await sql.end();
  };
}

/** The embedded default keeps its own session secret under the data directory, made once. */
async function storedSecret(config: Config): Promise<string> {
  const file = path.join(config.dataDir, "session-secret");
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

main().catch(async (error) => {
  // Through logError: a failed seed's driver error carried every row of its batch (names, emails).
  if (error instanceof ConfigError) console.error(error.message);
  else logError("Assay could not start", error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
