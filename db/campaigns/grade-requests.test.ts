import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../accounts/users";
import { requestMoreGrades } from "./grade-requests";

let t: TestDatabase;
let campaignId = 0;
let items: { id: number; proposalId: number }[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 8, candidates: 150, seed: "grade-requests" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(
    sql`select id from campaigns where status = 'running' limit 1`,
  );
  // Two pairs of one proposal and one of another.
  const [first, second] = await t.db.execute<{ proposalId: number }>(
    sql`select distinct proposal_id as "proposalId" from campaign_items where campaign_id = ${campaignId} order by 1 limit 2`,
  );
  items = [
    ...(await t.db.execute<{ id: number; proposalId: number }>(
      sql`select id, proposal_id as "proposalId" from campaign_items where proposal_id = ${first.proposalId} and campaign_id = ${campaignId} order by id limit 2`,
    )),
    ...(await t.db.execute<{ id: number; proposalId: number }>(
      sql`select id, proposal_id as "proposalId" from campaign_items where proposal_id = ${second.proposalId} and campaign_id = ${campaignId} order by id limit 1`,
    )),
  ];
}, 120_000);
afterAll(() => t.drop());

const assignmentCount = async () =>
  (
    await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from campaign_assignments where campaign_id = ${campaignId}`,
    )
  )[0].n;

it("gives each proposal of the chosen pairs r new experts who never had it, in one transaction", async () => {
  const before = await assignmentCount();
  // The demo's experts all have these proposals already: nobody is eligible, nothing is written.
  const ids = items.map((i) => i.id);
  await expect(requestMoreGrades(t.db, "cli", campaignId, ids, 1)).rejects.toThrow(
    /has only 0 eligible experts who never had it, for 1 more grade;/,
  );
  expect(await assignmentCount()).toBe(before);

  const fresh: { id: number }[] = [];
  for (const n of [1, 2])
    fresh.push(
      await createUser(t.db, "cli", {
        email: `extra${n}@test.local`,
        name: `Extra ${n}`,
        roles: ["expert"],
        password: "long-enough-1",
      }),
    );
  // Two more grades for three pairs of two proposals: two assignments per proposal, the least loaded first.
  expect(await requestMoreGrades(t.db, "cli", campaignId, ids, 2)).toEqual({ proposals: 2, assignments: 4 });
  const added = await t.db.execute<{ proposalId: number; expertId: number }>(
    sql`select proposal_id as "proposalId", expert_id as "expertId" from campaign_assignments
        where campaign_id = ${campaignId} and expert_id in (${fresh[0].id}, ${fresh[1].id}) order by 1, 2`,
  );
  const proposals = [...new Set(items.map((i) => i.proposalId))];
  expect(added).toEqual(proposals.flatMap((p) => fresh.map((e) => ({ proposalId: p, expertId: e.id }))));
  const [audit] = await t.db.execute<{ detail: { raters: number; assignments: number } }>(
    sql`select detail from audit_log where action = 'campaign.grades.request'`,
  );
  expect(audit.detail).toMatchObject({ raters: 2, assignments: 4 });

  // Never the same expert twice on a pair: asking again finds nobody left.
  await expect(requestMoreGrades(t.db, "cli", campaignId, [items[0].id], 1)).rejects.toThrow(/has only 0/);
  expect(await assignmentCount()).toBe(before + 4);
}, 120_000);

it("refuses pairs of another campaign and campaigns that are not running", async () => {
  await expect(requestMoreGrades(t.db, "cli", campaignId, [2_000_000_000], 1)).rejects.toMatchObject({
    status: 400,
    message: "Pair 2000000000 is not a pair of this campaign.",
  });
  await t.db.execute(sql`update campaigns set status = 'closed' where id = ${campaignId}`);
  await expect(requestMoreGrades(t.db, "cli", campaignId, [items[0].id], 1)).rejects.toMatchObject({
    status: 409,
    message: "Only a running campaign can ask for more grades.",
  });
  await t.db.execute(sql`update campaigns set status = 'running' where id = ${campaignId}`);
});
