import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "../../db/platform/embedded";
import { applyMigrations } from "../../db/migrate";

/**
 * A migrated PostgreSQL of its own, filled by `prepare`, and the production build serving it on a free
 * port; `stop` ends both and removes the data. For benchmarks that measure over HTTP.
 */
export async function benchServer(prepare: (url: string) => Promise<void>) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-"));
  await fs.chmod(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir });
  const stop = async () => {
    server?.kill("SIGTERM");
    await pg.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  let server: ReturnType<typeof spawn> | undefined;
  try {
    await applyMigrations(pg.url);
    await prepare(pg.url);
    const port = await freePort();
    server = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "server.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: pg.url,
        SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
        NODE_ENV: "production",
      },
      stdio: process.env.BENCH_SERVER_LOG ? ["ignore", "inherit", "inherit"] : "ignore",
    });
    const base = `http://127.0.0.1:${port}`;
    for (
      let i = 0;
      i < 300 &&
      !(await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 200));
    return { base, databaseUrl: pg.url, stop, pid: server.pid! };
  } catch (error) {
    await stop();
    throw error;
  }
}
