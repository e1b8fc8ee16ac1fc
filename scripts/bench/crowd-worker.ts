import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { sql as raw } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { users } from "../../db/schema";
import { hashPassword } from "../../db/accounts/password";
import { createCampaign, launchCampaign } from "../../db/campaigns/campaigns";
import { createBaselines } from "../../db/catalog/baselines";
import { campaignSchema } from "../inputs/campaigns";
import { seedDemo } from "../demo/seed";
import { benchServer } from "./server";
import { signInForBench, type BenchSession } from "./sign-in";
import { clickBatch, postEvents, quantile, runningExperiment, unitsOf } from "./probes";

/**
 * A crowd at once (issue 26): CROWD_EXPERTS experts (default 200), each signed in with a session and its
 * CSRF token, grade one launched campaign through the task page's own save (the POST its save queue
 * sends) at a fast expert's pace, one grade every ~2 s each, for BENCH_SECONDS (default 120), while the
 * conveners' recommender posts batches of events and a probe reads /healthz. Then the database is read:
 * every acknowledged grade must be there with the grade last sent, and nothing else.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 120);
const crowd = Number(process.env.CROWD_EXPERTS ?? 200);
const paceMs = 2000;
const password = "crowd-bench-password-1";
const ROUTE = encodeURIComponent("routes/expert.assignments.$assignmentId");

interface Task {
  email: string;
  assignment: number;
  items: number[];
}
let tasks: Task[] = [];
let apiKey = "";
let campaignId = 0;
const { base, databaseUrl, stop, pid } = await benchServer(async (url) => {
  const { db, sql } = createDb(url);
  await seedDemo(db);
  await createBaselines(db, { depth: 20 });
  // One hash for all: the bench measures grading, not 200 scrypts before it starts.
  const passwordHash = await hashPassword(password);
  const emails = Array.from({ length: crowd }, (_, i) => `crowd-${i}@assay.local`);
  await db
    .insert(users)
    .values(
      emails.map((email, i) => ({ email, name: `Crowd ${i}`, roles: ["expert" as const], passwordHash })),
    );
  // Ten raters per proposal (the most a campaign takes): a proposal for every ten experts.
  const proposals = await db.execute<{ external_id: string }>(
    raw`select p.external_id from proposals p where (select count(distinct s.key) from ranked_lists rl
      join systems s on s.id = rl.system_id where rl.proposal_id = p.id and s.key in ('baseline', 'challenger')) = 2
      order by p.external_id limit ${Math.ceil(crowd / 10)}`,
  );
  const campaign = await createCampaign(
    db,
    "cli",
    campaignSchema.parse({
      name: "Crowd",
      systems: ["baseline", "challenger"],
      depth: 20,
      raters: 10,
      experts: emails,
      proposals: proposals.map((p) => p.external_id),
    }),
  );
  await launchCampaign(db, "cli", campaign.id);
  campaignId = campaign.id;
  const rows = await db.execute<{ email: string; assignment: number; items: number[] }>(raw`
    select distinct on (u.id) u.email, a.id as assignment,
      (select array_agg(i.id order by i.id) from campaign_items i
        where i.campaign_id = a.campaign_id and i.proposal_id = a.proposal_id) as items
    from campaign_assignments a join users u on u.id = a.expert_id
    where a.campaign_id = ${campaign.id} order by u.id, a.id`);
  tasks = rows.map((r) => ({ email: r.email, assignment: r.assignment, items: r.items }));
  apiKey = await runningExperiment(db, "crowd");
  await sql.end();
});

/** CPU seconds used so far by process `pid` and its descendants (tsx runs the server in a child). */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [utime, stime] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(11, 13)
      .map(Number);
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
    return (
      (utime + stime) / 100 + children.filter(Boolean).reduce((sum, c) => sum + cpuSeconds(Number(c)), 0)
    );
  } catch {
    return 0; // not Linux, or the process is gone
  }
}

/** Loops `step` every `everyMs` (from its start) until `until`. */
async function every(everyMs: number, until: number, step: () => Promise<void>) {
  while (performance.now() < until) {
    const started = performance.now();
    await step();
    await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (performance.now() - started))));
  }
}

try {
  // Signed in four at a time, as people arriving: each sign-in is one scrypt on the server.
  const sessions: BenchSession[] = [];
  for (let i = 0; i < tasks.length; i += 4)
    sessions.push(
      ...(await Promise.all(tasks.slice(i, i + 4).map((t) => signInForBench(base, t.email, password)))),
    );
  const saves: number[] = [];
  const health: number[] = [];
  const events = { sent: 0, failed: 0 };
  let failedSaves = 0;
  const acknowledged = new Map<string, number>(); // "assignment:item" → the grade last acknowledged
  const started = performance.now();
  const [serverCpu0, clientCpu0] = [cpuSeconds(pid), process.cpuUsage()];
  const deadline = started + seconds * 1000;
  const expert = async (task: Task, n: number) => {
    const session = sessions[n];
    await new Promise((r) => setTimeout(r, (n * paceMs) / tasks.length)); // arrivals spread over one pace
    let k = 0;
    await every(paceMs, deadline, async () => {
      const item = task.items[k % task.items.length];
      const grade = 1 + Math.floor(Math.random() * 4);
      const body = new URLSearchParams({
        intent: "grade",
        item: String(item),
        grade: String(grade),
        rationale: "",
        position: String((k++ % task.items.length) + 1),
        timeSpentMs: String(paceMs),
        csrf: session.csrf,
      });
      const t = performance.now();
      const response = await fetch(`${base}/expert/assignments/${task.assignment}?_data=${ROUTE}`, {
        method: "POST",
        body,
        headers: session.formHeaders,
      }).catch(() => null);
      await response?.arrayBuffer();
      if (response?.ok && !response.headers.get("X-Remix-Redirect")) {
        saves.push(performance.now() - t);
        acknowledged.set(`${task.assignment}:${item}`, grade);
      } else failedSaves++;
    });
  };
  const units = unitsOf("crowd", 500);
  await Promise.all([
    ...tasks.map(expert),
    every(100, deadline, async () => {
      const response = await postEvents(base, apiKey, clickBatch("crowd", units, 10)).catch(() => null);
      await response?.arrayBuffer();
      if (response?.ok) events.sent += 10;
      else events.failed++;
    }),
    every(100, deadline, async () => {
      const t = performance.now();
      const response = await fetch(`${base}/healthz`);
      await response.arrayBuffer();
      health.push(performance.now() - t);
    }),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  // Where the time goes: the server's CPU per request against the bench clients' own on the same cores.
  const serverCpu = cpuSeconds(pid) - serverCpu0;
  const clientUsage = process.cpuUsage(clientCpu0);
  const clientCpu = (clientUsage.user + clientUsage.system) / 1e6;
  const requests = saves.length + failedSaves + health.length + events.sent / 10 + events.failed;

  // What the database holds: every acknowledged grade as last sent, and no row nobody was told of.
  const { sql } = createDb(databaseUrl, { max: 1 });
  const stored = await sql<{ assignment_id: number; item_id: number; grade: number | null }[]>`
    select r.assignment_id, r.item_id, r.grade from ratings r
    join campaign_assignments a on a.id = r.assignment_id where a.campaign_id = ${campaignId}`;
  const [{ n: storedEvents }] = await sql<{ n: number }[]>`
    select count(*)::int as n from events e join experiments x on x.id = e.experiment_id where x.key = 'crowd'`;
  await sql.end();
  const found = new Map(stored.map((r) => [`${r.assignment_id}:${r.item_id}`, r.grade]));
  const lost = [...acknowledged].filter(([pair, grade]) => found.get(pair) !== grade).length;
  const duplicated = stored.length - found.size;
  // Stored though the answer never came back (a failed save the expert's queue would send again).
  const unacknowledged = [...found.keys()].filter((p) => !acknowledged.has(p)).length;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const [saveP50, saveP99, healthP99] = [quantile(saves, 0.5), quantile(saves, 0.99), quantile(health, 0.99)];
  console.log(
    JSON.stringify({
      mode: "crowd",
      seconds: elapsed,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      saveP50,
      saveP99,
      healthP99,
      lost,
      duplicated,
      failedSaves,
      detail:
        `${tasks.length} experts, a grade every ~${paceMs / 1000} s each for ${seconds} s: ${saves.length} saves, ` +
        `p50 ${ms(saveP50)}, p99 ${ms(saveP99)}, max ${ms(Math.max(...saves))}; ${failedSaves} failed; ` +
        `${acknowledged.size} graded pairs, ${lost} lost, ${duplicated} duplicated, ${unacknowledged} stored unacknowledged; /healthz p50 ` +
        `${ms(quantile(health, 0.5))}, p99 ${ms(healthP99)} (${health.length} probes); events ${events.sent} sent, ` +
        `${storedEvents} stored, ${events.failed} batches refused; server CPU ${serverCpu.toFixed(1)} s ` +
        `(${((serverCpu / elapsed) * 100).toFixed(0)}% of a core, ${ms((serverCpu * 1000) / requests)} per request), ` +
        `bench clients CPU ${clientCpu.toFixed(1)} s`,
    }),
  );
} finally {
  await stop();
}
