import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { expertAssignments, saveGrade, taskView } from "../../db/campaigns/campaigns";
import { offlineResult } from "../../db/results/offline";
import { createSnapshot } from "../../db/snapshots/snapshots";
import { runInProcess, type HeavyRunner } from "../workers/heavy-tasks";

/**
 * One freeze of the offline report (B = 300, as the reviewer of issue 22 froze it) while an expert
 * saves a grade every 250 ms in another process, timed as the analyst waits for it: the report is on
 * screen first (the /analyst loader's computation), then Freeze; with `--revalidate`, the dashboard's
 * loader runs again after the freeze, as the router did before a freeze skipped it (what the button
 * waited for). Patterns: `none` (nobody grades), `rationale` (the same grade, a rationale typed: no label
 * changes), `regrade` (the reviewer's: one card's grade flipped between 3 and 2). Prints one JSON line.
 *
 * `tsx freeze-grading-worker.ts freeze <database url> <pattern> <seed> [--revalidate]`; the grading
 * process is this file with `grade <database url> <pattern>`.
 */
const here = fileURLToPath(import.meta.url);
const [mode, url, pattern, seed] = process.argv.slice(2);

async function grade() {
  const { db } = createDb(url, { max: 2 });
  const [expert] = await db.execute<{ id: number }>(
    sql`select id from users where email = 'expert@assay.local'`,
  );
  const [task] = (await expertAssignments(db, expert.id)).filter((a) => a.status === "running");
  const [card] = (await taskView(db, expert.id, task.id)).cards;
  let saves = 0;
  let stop = false;
  process.on("SIGTERM", () => (stop = true));
  console.log("ready");
  while (!stop) {
    const flip = pattern === "regrade" && saves % 2 === 1;
    await saveGrade(db, expert.id, task.id, {
      item: card.id,
      grade: flip ? "2" : "3",
      rationale: pattern === "rationale" ? `typed ${saves}` : "",
      position: 1,
      timeSpentMs: 1000,
    });
    saves++;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(JSON.stringify({ saves }));
  process.exit(0);
}

/** The grading process, started and ready (its first save is 250 ms away); `stop()` ends it with its count. */
async function startGrading() {
  const child = spawn(
    process.execPath,
    [path.resolve(path.dirname(here), "../../node_modules/tsx/dist/cli.mjs"), here, "grade", url, pattern],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve) => {
    const check = () => (out.includes("ready") ? resolve() : setTimeout(check, 20));
    check();
  });
  return async () => {
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    return (JSON.parse(out.trim().split("\n").pop()!) as { saves: number }).saves;
  };
}

async function freeze() {
  const { db, sql: client } = createDb(url, { max: 5 });
  const computed: string[] = [];
  const counting: HeavyRunner = (task, input, progress) => {
    computed.push(task);
    return runInProcess(task, input, progress);
  };
  const request = { kind: "offline" as const, B: 300, seed };
  // The report on screen: the /analyst loader's computation, with its fairness section.
  let t = performance.now();
  await offlineResult(db, request, counting, { fairness: {} });
  const pageSeconds = (performance.now() - t) / 1000;
  const onScreen = computed.length;
  const stop = pattern === "none" ? null : await startGrading();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t = performance.now();
  const snapshot = await createSnapshot(db, "cli", request, counting);
  if (process.argv.includes("--revalidate")) await offlineResult(db, request, counting, { fairness: {} });
  const seconds = (performance.now() - t) / 1000;
  const saves = stop ? await stop() : 0;
  await client.end();
  console.log(
    JSON.stringify({
      mode: `freeze offline B=300 while ${pattern}`,
      seconds,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail: `snapshot ${snapshot.id}${snapshot.created ? "" : " (existing)"}; heavy tasks after the page: ${computed.length - onScreen} (${computed.slice(onScreen).join(", ") || "none"}); ${saves} saves meanwhile; the page took ${pageSeconds.toFixed(2)} s`,
    }),
  );
}

await (mode === "grade" ? grade() : freeze());
