import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../db/platform/embedded";
import { startTestProvider } from "../test/oidc-provider";

/**
 * Starts the production build (`npm run build` first) with the embedded database in a fresh data
 * directory on a free port; the demo data set gives every role a login. Tests read the address
 * from E2E_BASE_URL (see e2e/test.ts).
 */
export default async function globalSetup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-e2e-"));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // A real OpenID Connect provider beside the server, so the sign-in page offers single sign-on (sso.spec.ts).
  const provider = await startTestProvider([`${baseURL}/auth/oidc/callback`]);
  const log: string[] = [];
  const server: ChildProcess = spawn(
    process.execPath,
    [path.resolve("node_modules/tsx/dist/cli.mjs"), "server.ts"],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        ASSAY_DATA_DIR: dataDir,
        DATABASE_URL: "",
        NODE_ENV: "production",
        // Reports at the event loop's priority: beside a busy machine's other work (a shared CI runner),
        // niced workers waited minutes for a snapshot. Priority is measured by `npm run bench -- isolation`.
        WORKER_NICE: "0",
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: "Test IdP",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout?.on("data", (d) => log.push(String(d)));
  server.stderr?.on("data", (d) => log.push(String(d)));
  await waitForHealth(baseURL, server, log);
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    await new Promise<void>((resolve) => {
      server.once("exit", () => resolve());
      server.kill("SIGTERM");
    });
    await provider.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}

async function waitForHealth(baseURL: string, server: ChildProcess, log: string[]) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early:\n${log.join("")}`);
    const ok = await fetch(`${baseURL}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill();
  throw new Error(`the server did not become healthy in 120 s:\n${log.join("")}`);
}
