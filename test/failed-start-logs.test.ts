import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres } from "../db/platform/embedded";
import { applyMigrations } from "../db/migrate";
import { generateDemo } from "../scripts/demo/generate";

/**
 * A start that fails while seeding the demo (issue 21, item 8: one such start logged a 661 KB line with
 * all 3,000 candidates' names and emails, the parameters of the failed insert). A data directory whose
 * database already holds the first demo candidate's id makes the seed's first insert fail.
 */
it("a start that fails while seeding logs why, without a name or an email, and leaves no database running", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-failed-start-"));
  await fs.chmod(dataDir, 0o755);
  const demo = generateDemo();
  try {
    const db = await startEmbeddedPostgres({ dataDir, onStatus: () => {} });
    await applyMigrations(db.url);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    await sql`insert into candidates (external_id, name) values (${demo.candidates[0].externalId}, 'Someone Else')`;
    await sql.end();
    await db.stop();

    const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ASSAY_DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    server.stdout.on("data", (d) => (output += String(d)));
    server.stderr.on("data", (d) => (output += String(d)));
    const code = await new Promise((resolve) => server.once("exit", resolve));

    expect(code).toBe(1);
    expect(output).toMatch(/Assay could not start/);
    const leaked = demo.candidates.filter((c) => output.includes(c.name) || output.includes(c.email));
    expect(leaked.map((c) => c.externalId)).toEqual([]);
    expect(output).not.toMatch(/@[a-z0-9-]+\.[a-z]{2,}/i);
    expect(output.length).toBeLessThan(5_000);
    // The embedded PostgreSQL it started was stopped: no postmaster is left for the next start.
    await expect(fs.access(path.join(dataDir, "postgres", "postmaster.pid"))).rejects.toThrow();
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);
