import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { DEMO_PASSWORD, seedDemo } from "../demo/seed";
import { benchServer } from "./server";
import { signInForBench } from "./sign-in";

/**
 * The result service's cache, over HTTP against the production build on the demo data: the server time
 * of the offline report's and a campaign page's loaders (`?_data=`), first views (computed) alternating
 * with second views (unchanged data, kept), medians of each. A first view of the offline report is a
 * new seed; of the campaign page, a grade saved again (new data, so a new input version), whose gold
 * figures the page then polls for till done, as the browser does; its second view is timed after that.
 */
const ROUNDS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { base, databaseUrl, stop } = await benchServer(async (url) => {
  const { db, sql: client } = createDb(url);
  await seedDemo(db);
  await client.end();
});
const { db, sql: client } = createDb(databaseUrl);
try {
  const session = await signInForBench(base, "analyst@assay.local", DEMO_PASSWORD);
  const [{ id: campaign }] = await db.execute<{ id: number }>(
    sql`select id from campaigns where status <> 'draft' order by id limit 1`,
  );
  const view = async (path: string, route: string) => {
    const start = performance.now();
    const response = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}_data=${route}`, {
      headers: { Cookie: session.cookie },
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return { ms: performance.now() - start, computing: body.includes('"gold":"computing"') };
  };
  const offline = { first: [] as number[], second: [] as number[] };
  const campaignPage = { first: [] as number[], second: [] as number[] };
  const campaignPath = `/analyst/campaigns/${campaign}`;
  for (let round = 0; round < ROUNDS; round++) {
    offline.first.push((await view(`/analyst?seed=bench-${round}`, "routes/analyst._index")).ms);
    offline.second.push((await view(`/analyst?seed=bench-${round}`, "routes/analyst._index")).ms);
    // A grade saved again: the campaign's data changed, so its next view computes anew.
    await db.execute(
      sql`update ratings set updated_at = now() where item_id = (select min(i.id) from campaign_items i
          join ratings r on r.item_id = i.id where i.campaign_id = ${campaign})`,
    );
    const first = await view(campaignPath, "routes/analyst.campaigns.$campaignId");
    campaignPage.first.push(first.ms);
    // The page says "computing" for its gold figures and asks again (every 2 s), as a browser would.
    for (let computing = first.computing; computing;) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      computing = (await view(campaignPath, "routes/analyst.campaigns.$campaignId")).computing;
    }
    campaignPage.second.push((await view(campaignPath, "routes/analyst.campaigns.$campaignId")).ms);
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const secondMax = Math.max(median(offline.second), median(campaignPage.second));
  console.log(
    JSON.stringify({
      mode: "results",
      seconds: secondMax / 1000,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail: `offline report: first view ${ms(median(offline.first))}, again ${ms(median(offline.second))} (${(median(offline.first) / median(offline.second)).toFixed(0)}×); campaign page: first view ${ms(median(campaignPage.first))}, again ${ms(median(campaignPage.second))} (${(median(campaignPage.first) / median(campaignPage.second)).toFixed(0)}×); medians of ${ROUNDS} alternating rounds`,
    }),
  );
} finally {
  await client.end();
  await stop();
}
