import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * Everything Assay reads from the environment, validated once at start.
 * A bad value stops the start with one sentence naming the variable (see `loadConfig`).
 */
const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /** The owner's connection for migrations when DATABASE_URL is a less privileged app role. */
  MIGRATE_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  ASSAY_DATA_DIR: z.string().min(1).default(".data"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // `always` also seeds an empty database given by DATABASE_URL (a staging copy, or several servers tried at once).
  ASSAY_SEED_DEMO: z.enum(["auto", "always", "never"]).default("auto"),
  // A session ends after this long unused, and at the latest this long after sign-in.
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive("must be more than 0 hours")
    .max(720, "must be at most 720 hours")
    .default(8),
  SESSION_MAX_DAYS: z.coerce
    .number()
    .positive("must be more than 0 days")
    .max(90, "must be at most 90 days")
    .default(7),
  PUBLIC_URL: z
    .string()
    .refine(
      isHttpOrigin,
      "must be the http(s) address people open Assay at, like https://assay.example.org, without a path",
    )
    .transform((url) => new URL(url).origin)
    .optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(\d|true|false)$/,
      "must be how many reverse proxies stand in front of Assay (usually 1), true or false",
    )
    .transform((hops) => (hops === "true" ? 1 : hops === "false" ? 0 : Number(hops)))
    .default("0"),
  WORKER_THREADS: z.coerce.number().int("must be a whole number").min(1).max(256).optional(),
  // Requests per minute to the events and assignment APIs, per API key and per client address (0: no limit).
  API_RATE_PER_KEY: z.coerce.number().int("must be a whole number").min(0).default(12_000),
  API_RATE_PER_ADDRESS: z.coerce.number().int("must be a whole number").min(0).default(12_000),
  // /metrics: with this token (Authorization: Bearer …); without one, only from METRICS_ALLOW's addresses.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  METRICS_ALLOW: z
    .string()
    .default("127.0.0.1,::1")
    .transform((list) =>
      list
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
    ),
  // How much lower the worker threads' priority is than the event loop's (Linux nice, 0-19).
  WORKER_NICE: z.coerce.number().int("must be a whole number").min(0).max(19).default(10),
  // Single sign-on (OpenID Connect): all three or none; OIDC_NAME is the provider's name on the button.
  OIDC_ISSUER: z
    .string()
    .refine(isHttpUrl, "must be the provider's issuer URL, like https://login.example.org/realms/acme")
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_NAME: z.string().min(1).max(60, "must be at most 60 characters").optional(),
});

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** An origin alone: http or https, a host, no credentials, path, query or fragment. */
function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const bare = !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash;
    return /^https?:$/.test(url.protocol) && bare;
  } catch {
    return false;
  }
}

export type Config = z.infer<typeof configSchema> & { dataDir: string; workerThreads: number };

export class ConfigError extends Error {}

/**
 * `forServer`: the web server also needs a session secret; in production with its own database it
 * must bring one, so sessions survive a redeploy on another machine (the embedded default generates
 * one under the data directory instead). The CLI and migrations need none.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: { forServer?: boolean } = {},
): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Configuration error: ${issue.path.join(".")} ${issue.message}.`);
  }
  const config = parsed.data;
  if (
    options.forServer &&
    config.NODE_ENV === "production" &&
    config.DATABASE_URL &&
    !config.SESSION_SECRET
  ) {
    throw new ConfigError(
      "Configuration error: SESSION_SECRET is required in production when DATABASE_URL is set.",
    );
  }
  const oidc = [config.OIDC_ISSUER, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET];
  if (oidc.some(Boolean) && !oidc.every(Boolean))
    throw new ConfigError(
      "Configuration error: single sign-on needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.",
    );
  // Bootstraps run in a pool of worker threads; one core stays with the event loop.
  const workerThreads = config.WORKER_THREADS ?? Math.max(1, os.availableParallelism() - 1);
  return { ...config, dataDir: path.resolve(config.ASSAY_DATA_DIR), workerThreads };
}
