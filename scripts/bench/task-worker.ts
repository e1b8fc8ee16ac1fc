import { performance } from "node:perf_hooks";
import { sql as raw } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { benchServer } from "./server";
import { seedDemo } from "../demo/seed";
import { createBaselines } from "../../db/catalog/baselines";
import { createUser } from "../../db/accounts/users";
import { createCampaign, launchCampaign } from "../../db/campaigns/campaigns";
import { campaignSchema } from "../inputs/campaigns";
import { signInForBench, type BenchSession } from "./sign-in";

/**
 * The expert task page with a pool of at least 150 candidates: 20 experts signed in, each loading
 * the page and saving grades concurrently for BENCH_SECONDS (default 30), against the production build.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const clients = Number(process.env.BENCH_CLIENTS ?? 20);
// An expert's pace: a grade every thinkMs (jittered ±50%, starts staggered), the page reloaded every
// `reloadEvery` grades. BENCH_THINK_MS=0 is a closed loop: every expert fires the next request at once.
const thinkMs = Number(process.env.BENCH_THINK_MS ?? 1000);
const reloadEvery = Number(process.env.BENCH_RELOAD_EVERY ?? 5);
let assignments: { id: number; expert_id: number; campaign_id: number }[] = [];
const itemsOf = new Map<number, number[]>();
let poolSize = 0;
const experts: { id: number; email: string }[] = [];
const { base, stop } = await benchServer(async (url) => {
  const { db, sql } = createDb(url);
  await seedDemo(db);
  await createBaselines(db, { depth: 50 });
  for (let i = 0; i < 20; i++)
    experts.push(
      await createUser(db, "cli", {
        email: `bench-expert-${i}@assay.local`,
        name: `Bench ${i}`,
        roles: ["expert"],
        password: "bench-password-1",
      }),
    );
  const [biggest] = await db.execute<{ external_id: string; pool: number }>(raw`
    select p.external_id, count(distinct li.candidate_id)::int as pool from list_items li join ranked_lists rl on rl.id = li.list_id
    join proposals p on p.id = rl.proposal_id group by p.external_id order by pool desc limit 1`);
  // Campaigns take at most 10 raters per proposal: two campaigns of ten on the same proposal.
  const ids: number[] = [];
  for (const group of [experts.slice(0, 10), experts.slice(10)]) {
    const campaign = await createCampaign(
      db,
      "cli",
      campaignSchema.parse({
        name: `Bench ${ids.length + 1}`,
        systems: ["baseline", "challenger", "random", "popular", "subject-match"],
        depth: 50,
        raters: 10,
        experts: group.map((e) => e.email),
        proposals: [biggest.external_id],
      }),
    );
    await launchCampaign(db, "cli", campaign.id);
    ids.push(campaign.id);
  }
  const idList = raw.join(
    ids.map((i) => raw`${i}`),
    raw`, `,
  );
  assignments = [
    ...(await db.execute<{ id: number; expert_id: number; campaign_id: number }>(
      raw`select id, expert_id, campaign_id from campaign_assignments where campaign_id in (${idList})`,
    )),
  ];
  for (const row of await db.execute<{ id: number; campaign_id: number }>(
    raw`select id, campaign_id from campaign_items where campaign_id in (${idList})`,
  )) {
    if (!itemsOf.has(row.campaign_id)) itemsOf.set(row.campaign_id, []);
    itemsOf.get(row.campaign_id)!.push(row.id);
  }
  poolSize = itemsOf.get(ids[0])!.length;
  await sql.end();
});
try {
  const sessions = new Map<number, BenchSession>();
  for (const e of experts) sessions.set(e.id, await signInForBench(base, e.email, "bench-password-1"));
  const page: number[] = [];
  const save: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    assignments.slice(0, clients).map(async (a, n) => {
      const session = sessions.get(a.expert_id)!;
      const cookie = session.cookie;
      let k = n;
      if (thinkMs) await new Promise((r) => setTimeout(r, (n * thinkMs) / clients));
      while (performance.now() < deadline) {
        let t = performance.now();
        if (thinkMs === 0 || k % reloadEvery === n % reloadEvery) {
          const html = await fetch(`${base}/expert/assignments/${a.id}`, { headers: { Cookie: cookie } });
          await html.text();
          if (!html.ok) throw new Error(`task page answered ${html.status}`);
          page.push(performance.now() - t);
          t = performance.now();
        }
        const own = itemsOf.get(a.campaign_id)!;
        const body = new URLSearchParams({
          item: String(own[k++ % own.length]),
          grade: String(1 + (k % 4)),
          rationale: "",
          position: "1",
          timeSpentMs: "1000",
          csrf: session.csrf,
        });
        const saved = await fetch(
          `${base}/expert/assignments/${a.id}?_data=${encodeURIComponent("routes/expert.assignments.$assignmentId")}`,
          { method: "POST", body, headers: session.formHeaders },
        );
        await saved.text();
        if (!saved.ok) throw new Error(`a grade save answered ${saved.status}`);
        save.push(performance.now() - t);
        if (thinkMs) await new Promise((r) => setTimeout(r, thinkMs * (0.5 + Math.random())));
      }
    }),
  );
  const p95 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(0.95 * (xs.length - 1))];
  console.log(
    JSON.stringify({
      mode: "task",
      seconds,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      pageP95: p95(page),
      saveP95: p95(save),
      detail: `pool ${poolSize} candidates, ${clients} experts, a grade every ~${thinkMs} ms, page reload every ${thinkMs ? reloadEvery : 1} grades; task page p95 ${p95(page).toFixed(1)} ms over ${page.length} loads; grade save p95 ${p95(save).toFixed(1)} ms over ${save.length} saves`,
    }),
  );
} finally {
  await stop();
}
