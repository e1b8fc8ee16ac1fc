import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedPostgres } from "../../db/platform/embedded";
import { applyMigrations } from "../../db/migrate";
import { createDb } from "../../db/platform/client";
import { seedDemo } from "../demo/seed";

/**
 * Freezing the offline report while an expert grades (issue 22): the demo in a PostgreSQL of its own,
 * then RUNS rounds (default 3) of one freeze per grading pattern (freeze-grading-worker.ts), each in a
 * process of its own with a new seed, so each starts from a report computed for the page. Prints every
 * run and the median seconds per pattern as JSON lines, the medians last.
 *
 * FREEZE_TREES="label=dir[:--revalidate],…" runs the same worker from other checkouts of the project
 * against the same database, alternating with this one, to compare versions (each checkout needs this
 * worker file); by default only this tree.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.RUNS ?? 3);
const patterns = (process.env.PATTERNS ?? "none,rationale,regrade").split(",");
const trees = (process.env.FREEZE_TREES ?? `this=${path.resolve(here, "../..")}`).split(",").map((t) => {
  const [label, rest] = t.split("=");
  const [dir, flag] = rest.split(":");
  return { label, dir, flag };
});

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-freeze-"));
const pg = await startEmbeddedPostgres({ dataDir });
try {
  await applyMigrations(pg.url);
  const { db, sql } = createDb(pg.url);
  await seedDemo(db);
  await sql.end();
  const seconds = new Map<string, number[]>();
  let maxRssMiB = 0;
  for (let run = 0; run < runs; run++)
    for (const pattern of patterns)
      for (const tree of trees) {
        const worker = path.join(tree.dir, "scripts/bench/freeze-grading-worker.ts");
        const tsx = path.join(tree.dir, "node_modules/tsx/dist/cli.mjs");
        const args = [tsx, worker, "freeze", pg.url, pattern, `bench-${tree.label}-${run}`];
        const out = execFileSync(process.execPath, tree.flag ? [...args, tree.flag] : args, {
          cwd: tree.dir,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        });
        const result = JSON.parse(out.trim().split("\n").pop()!) as { seconds: number; maxRssMiB: number };
        console.log(JSON.stringify({ tree: tree.label, run, ...result }));
        const key = `${tree.label} ${pattern}`;
        seconds.set(key, [...(seconds.get(key) ?? []), result.seconds]);
        maxRssMiB = Math.max(maxRssMiB, result.maxRssMiB);
      }
  const medians = [...seconds].map(([key, all]) => {
    const median = [...all].sort((a, b) => a - b)[Math.floor(all.length / 2)];
    console.log(JSON.stringify({ median: key, seconds: median, all }));
    return { key, median };
  });
  // Last, as `npm run bench` reads it: the slowest median with someone grading, of the first tree.
  const graded = medians.filter((m) => m.key.startsWith(`${trees[0].label} `) && !m.key.endsWith(" none"));
  console.log(
    JSON.stringify({
      mode: "freeze offline B=300 while an expert grades",
      seconds: Math.max(...graded.map((m) => m.median)),
      maxRssMiB,
      detail: `medians of ${runs}: ${medians.map((m) => `${m.key} ${m.median.toFixed(2)} s`).join(", ")}`,
    }),
  );
} finally {
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
