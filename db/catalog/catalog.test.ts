import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { listCandidates, listProposals, listRankedLists } from "./catalog";
import { listExperiments } from "../experiments/experiments";
import { listCampaigns } from "../campaigns/campaigns";

// The listings count related rows in correlated subqueries; each count is checked against plain SQL
// (drizzle leaves columns unqualified in a select without joins, which once made these wrong).
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 40, candidates: 300, seed: "catalog-test" });
});
afterAll(() => t.drop());

const page = { q: "", sort: "externalId", dir: "asc" as const, page: 1, size: 100 };

it("counts lists and gold members per proposal", async () => {
  const { rows } = await listProposals(t.db, page);
  const truth = await t.db.execute<{ external_id: string; lists: number; gold: number }>(
    sql`select p.external_id, (select count(*)::int from ranked_lists r where r.proposal_id = p.id) as lists, (select count(*)::int from gold_members g where g.proposal_id = p.id) as gold from proposals p`,
  );
  for (const r of rows)
    expect([r.lists, r.gold]).toEqual([
      truth.find((x) => x.external_id === r.externalId)!.lists,
      truth.find((x) => x.external_id === r.externalId)!.gold,
    ]);
});

it("counts how often each candidate is listed", async () => {
  const { rows } = await listCandidates(t.db, { ...page, sort: "listed", dir: "desc" });
  const [top] = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from list_items group by candidate_id order by 1 desc limit 1`,
  );
  expect(rows[0].listed).toBe(top.n);
});

it("counts list items and gold found per list", async () => {
  const { rows } = await listRankedLists(t.db, { ...page, sort: "system" });
  expect(rows.every((r) => r.items === 50)).toBe(true);
});

it("counts units and events per experiment and proposals, pairs and grades per campaign", async () => {
  // Each experiment's counts are its own (the demo has an A/B and an interleaving experiment).
  const experiments = await listExperiments(t.db);
  expect(experiments.length).toBeGreaterThan(1);
  for (const experiment of experiments) {
    const [truth] = await t.db.execute<{ units: number; events: number }>(
      sql`select (select count(*)::int from exposures where experiment_id = ${experiment.id}) as units, (select count(*)::int from events where experiment_id = ${experiment.id}) as events`,
    );
    expect({ units: experiment.units, events: experiment.events }).toEqual(truth);
  }
  const [campaign] = await listCampaigns(t.db);
  const [c] = await t.db.execute<{ proposals: number; items: number; ratings: number }>(
    sql`select (select count(*)::int from campaign_proposals) as proposals, (select count(*)::int from campaign_items) as items, (select count(*)::int from ratings) as ratings`,
  );
  expect({ proposals: campaign.proposals, items: campaign.items, ratings: campaign.ratings }).toEqual(c);
  expect(campaign.items).toBeGreaterThan(40);
});
