import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../db/platform/embedded";
import { expect, test } from "./test";

/**
 * Supervision of the embedded PostgreSQL across crashes (issue 26): Node is killed with -9, which leaves
 * its postmaster running without a supervisor; the next start must not simply reuse it, or PostgreSQL's
 * next death would leave /healthz down for good. A server of its own (no demo data), in its own folder.
 */
let dataDir = "";
const servers: ChildProcess[] = [];

test.beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-supervision-"));
  await fs.chmod(dataDir, 0o755);
});
test.afterAll(async () => {
  for (const server of servers) if (server.exitCode === null) server.kill("SIGKILL");
  const pid = await postmasterPid().catch(() => null);
  if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  await fs.rm(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const postmasterPid = async () =>
  Number((await fs.readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);

/** Starts server.ts on the shared data directory and resolves with its address once /healthz says up. */
async function start(log: string[]) {
  const port = await freePort();
  // Node itself runs server.ts (`tsx` would run it in a child, which a -9 of tsx leaves behind).
  const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ASSAY_DATA_DIR: dataDir,
      ASSAY_SEED_DEMO: "never",
      DATABASE_URL: "",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  servers.push(server);
  server.stdout?.on("data", (d) => log.push(String(d)));
  server.stderr?.on("data", (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (server.exitCode === null ? await healthy(url) : `exited: ${log.join("")}`), {
      timeout: 120_000,
    })
    .toBe(true);
  return { server, url };
}

const healthy = (url: string) =>
  fetch(`${url}/healthz`).then(
    (r) => r.ok,
    () => false,
  );

const exited = (server: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    server.exitCode !== null ? resolve(server.exitCode) : server.once("exit", (code) => resolve(code)),
  );

test("after Node is killed -9, the next start supervises PostgreSQL again; SIGTERM stops both", async () => {
  test.setTimeout(300_000);
  const log: string[] = [];
  const first = await start(log);
  const orphan = await postmasterPid();
  first.server.kill("SIGKILL");
  await exited(first.server);
  expect(alive(orphan)).toBe(true); // what a crash leaves: a postmaster nobody watches

  const second = await start(log);
  const supervised = await postmasterPid();
  expect(supervised).not.toBe(orphan);
  expect(alive(orphan)).toBe(false);

  process.kill(supervised, "SIGKILL");
  const killedAt = performance.now();
  // /healthz answers 200 again. The bound (15 s) is measured by `npm run bench -- outage`; here
  // only a hang fails, so that a loaded machine does not.
  await expect.poll(() => healthy(second.url), { timeout: 60_000, intervals: [100] }).toBe(true);
  test.info().annotations.push({
    type: "healthz back after",
    description: `${Math.round(performance.now() - killedAt)} ms`,
  });
  expect(log.join("")).toMatch(/The embedded PostgreSQL is back after \d+ ms/);

  // SIGTERM: the server stops with 0, and stops its PostgreSQL (no orphan for the next start).
  const restarted = await postmasterPid();
  second.server.kill("SIGTERM");
  expect(await exited(second.server)).toBe(0);
  expect(alive(restarted)).toBe(false);
});
