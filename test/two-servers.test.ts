import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "./database";
import { DEMO_PASSWORD, demoUsers } from "../scripts/demo/seed";
import { createApiKey, createExperiment, setExperimentStatus } from "../db/experiments/experiments";
import { experimentSchema } from "../scripts/inputs/experiments";
import { assignUnit } from "../scripts/assign/assign";
import { signInForBench } from "../scripts/bench/sign-in";

/**
 * Two app processes (the production build) on one PostgreSQL, as behind a load balancer: started at the
 * same moment on an empty database, they migrate and seed the demo once (under the start lock); a session
 * made on one is good on the other; and events posted to both while one is killed with SIGKILL are stored
 * exactly once when the client retries the failed batch on the survivor.
 */
const root = path.resolve(__dirname, "..");
let t: TestDatabase;
const servers: { process: ChildProcess; output: () => string }[] = [];

beforeAll(() => {
  // The servers run build/index.js; a fresh clone has none until `npm run build` (or this) made it.
  if (!fs.existsSync(path.join(root, "build/index.js")))
    execFileSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      cwd: root,
      stdio: "pipe",
      env: { ...process.env, NODE_ENV: "production" }, // as `npm run build`: the servers run in production
    });
}, 240_000);
afterAll(async () => {
  for (const s of servers) if (s.process.exitCode === null && s.process.signalCode === null) s.process.kill();
  await Promise.all(
    servers.map((s) =>
      s.process.exitCode === null && s.process.signalCode === null
        ? new Promise((resolve) => s.process.once("exit", resolve))
        : null,
    ),
  );
  await t?.drop();
});

/** Starts `server.ts` on `url` at a free port; resolves with its address once it listens. */
function startServer(url: string): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: url,
      SESSION_SECRET: "two-servers-secret-two-servers-secret",
      NODE_ENV: "production",
      ASSAY_SEED_DEMO: "always",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  servers.push({ process: child, output: () => output });
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += String(chunk);
      const listening = /Assay is running at http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve(`http://127.0.0.1:${listening[1]}`);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => reject(new Error(`a server stopped at start (${code}):\n${output}`)));
  });
}

async function runningExperiment(key: string): Promise<string> {
  const arms = [
    { key: "A", system: "baseline", weight: 0.5 },
    { key: "B", system: "challenger", weight: 0.5 },
  ];
  await createExperiment(t.db, "cli", experimentSchema.parse({ key, name: key, arms, control: "A" }));
  await setExperimentStatus(t.db, "cli", key, "running");
  return (await createApiKey(t.db, "cli", key)).key;
}

function batchOf(b: number) {
  return Array.from({ length: 20 }, (_, i) => {
    const unit = `u${b}-${i}`;
    return {
      eventId: randomUUID(),
      type: "click",
      at: new Date().toISOString(),
      experiment: "two",
      arm: ["A", "B"][assignUnit("two", unit, [0.5, 0.5]).arm],
      unitId: unit,
      sessionId: `s${b}`,
      proposalId: "p-1",
      candidateId: `c-${i}`,
    };
  });
}

it("two servers on one database: one migration and seed, shared sessions, no event lost or doubled when one is killed", async () => {
  t = await createTestDatabase({ empty: true });
  const [one, two] = await Promise.all([startServer(t.url), startServer(t.url)]);

  // Started at once on an empty database: every migration applied once, the demo loaded by one of them.
  const journal = JSON.parse(fs.readFileSync(path.join(root, "migrations/meta/_journal.json"), "utf8"));
  const [applied] = await t.db.execute<{ n: number; distinct: number }>(
    sql`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
  );
  expect(applied).toEqual({ n: journal.entries.length, distinct: journal.entries.length });
  const seeds = servers.filter((s) => s.output().includes("Empty database: loading the demo data set"));
  expect(seeds).toHaveLength(1);
  const users = await t.db.execute<{ email: string; n: number }>(
    sql`select lower(email) as email, count(*)::int as n from users group by lower(email) order by 1`,
  );
  const demoEmails = demoUsers.map((u) => u.email.toLowerCase());
  expect(users.filter((u) => demoEmails.includes(u.email)).map((u) => u.n)).toEqual(demoEmails.map(() => 1));

  // A session made on server 1 is the same person's on server 2 (sessions live in the database).
  const session = await signInForBench(one, "expert@assay.local", DEMO_PASSWORD);
  const root2 = await fetch(`${two}/login?_data=root`, { headers: { Cookie: session.cookie } });
  expect(((await root2.json()) as { user: { name: string } | null }).user?.name).toBe("Erin Expert");
  const page2 = await fetch(`${two}/expert?_data=${encodeURIComponent("routes/expert._index")}`, {
    headers: { Cookie: session.cookie },
    redirect: "manual",
  });
  expect(page2.status).toBe(200);

  // Batches alternate between the servers; server 2 is killed while a batch to it is in flight, and
  // that batch (stored or not, the client cannot know) is sent again to server 1.
  const apiKey = await runningExperiment("two");
  const post = (base: string, events: unknown[]) =>
    fetch(`${base}/api/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ events }),
    }).then(
      (r) => r.status,
      () => 0,
    );
  const batches = Array.from({ length: 30 }, (_, b) => batchOf(b));
  let retried = 0;
  for (const [b, batch] of batches.entries()) {
    const target = b % 2 === 0 ? one : two;
    const sent = post(target, batch);
    if (b === 15) servers[1].process.kill("SIGKILL");
    let status = await sent;
    while (status !== 200) {
      retried++;
      expect(retried).toBeLessThan(100);
      status = await post(one, batch);
    }
  }
  const rows = await t.db.execute<{ event_id: string }>(
    sql`select e.event_id from events e join experiments x on x.id = e.experiment_id where x.key = 'two'`,
  );
  const sentIds = batches.flat().map((e) => e.eventId);
  const storedIds = rows.map((r) => r.event_id);
  const stored = {
    n: storedIds.length,
    distinct: new Set(storedIds).size,
    lost: sentIds.filter((id) => !storedIds.includes(id)).length,
  };
  console.log(
    `two servers: ${applied.n} migrations applied once, demo seeded once; ${batches.length * 20} events, ` +
      `${stored.n} stored, ${stored.distinct} distinct, ${stored.lost} lost, ${retried} batch(es) retried on server 1 after the kill`,
  );
  expect(servers[1].process.signalCode).toBe("SIGKILL");
  expect(retried).toBeGreaterThan(0);
  expect(stored).toEqual({ n: 600, distinct: 600, lost: 0 });
}, 180_000);
