import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { LEGACY_PASSWORD, passwordFile } from "./embedded-password";
import { runningEmbeddedUrl } from "./connect";

/**
 * The embedded cluster's superuser has a random password per data directory, kept in a 0600 file that
 * other processes read; a cluster still on the old `assay`/`assay` is moved to one on start; and the
 * server listens on the loopback address only. Its own cluster, since it is restarted on purpose.
 */
let dataDir = "";
let server: EmbeddedServer | undefined;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-embedded-"));
  await fs.chmod(dataDir, 0o755);
});
afterAll(async () => {
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function query(url: string, text: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    return await sql.unsafe(text);
  } finally {
    await sql.end();
  }
}
const withPassword = (url: string, password: string) => Object.assign(new URL(url), { password }).toString();

it("initialises the cluster with a random password in a 0600 file, listening on 127.0.0.1 only", async () => {
  server = await startEmbeddedPostgres({ dataDir, onStatus: () => {} });
  const stored = (await fs.readFile(passwordFile(dataDir), "utf8")).trim();
  expect(stored).toMatch(/^[0-9a-f]{48}$/);
  expect((await fs.stat(passwordFile(dataDir))).mode & 0o777).toBe(0o600);
  expect(new URL(server.url).password).toBe(stored);
  expect(await query(server.url, "show listen_addresses")).toEqual([{ listen_addresses: "127.0.0.1" }]);
  await expect(query(withPassword(server.url, LEGACY_PASSWORD), "select 1")).rejects.toMatchObject({
    code: "28P01",
  });
  // Another process (the CLI, the tests' global setup) finds the running server and its password.
  const running = await runningEmbeddedUrl(dataDir);
  expect(running).not.toBeNull();
  expect(await query(running!, "select 1 as one")).toEqual([{ one: 1 }]);
});

it("moves a cluster still on the legacy assay/assay to a new random password on start", async () => {
  await query(server!.url, `alter user assay password '${LEGACY_PASSWORD}'`);
  await fs.rm(passwordFile(dataDir));
  await server!.stop();
  server = await startEmbeddedPostgres({ dataDir, onStatus: () => {} });
  const stored = (await fs.readFile(passwordFile(dataDir), "utf8")).trim();
  expect(stored).toMatch(/^[0-9a-f]{48}$/);
  expect((await fs.stat(passwordFile(dataDir))).mode & 0o777).toBe(0o600);
  expect(await query(server.url, "select current_user as who")).toEqual([{ who: "assay" }]);
  await expect(query(withPassword(server.url, LEGACY_PASSWORD), "select 1")).rejects.toMatchObject({
    code: "28P01",
  });
  expect(await runningEmbeddedUrl(dataDir)).toBe(server.url);
});

it("refuses to start, naming the password file, when neither its password nor the legacy one opens the cluster", async () => {
  await server!.stop();
  server = undefined;
  const stored = await fs.readFile(passwordFile(dataDir), "utf8");
  await fs.writeFile(passwordFile(dataDir), "0".repeat(48), { mode: 0o600 });
  await expect(startEmbeddedPostgres({ dataDir, onStatus: () => {} })).rejects.toThrow(
    `accepts neither the password in ${passwordFile(dataDir)}`,
  );
  // The failed start stopped its server again: with the right password back, the cluster starts.
  await fs.writeFile(passwordFile(dataDir), stored, { mode: 0o600 });
  server = await startEmbeddedPostgres({ dataDir, onStatus: () => {} });
  expect(await query(server.url, "select 1 as one")).toEqual([{ one: 1 }]);
});
