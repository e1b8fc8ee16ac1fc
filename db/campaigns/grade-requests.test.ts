import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../accounts/users";
import { pendingGrades, requestMoreGrades } from "./grade-requests";
import {
  campaignProgress,
  expertAssignments,
  finishAssignment,
  proposalProgress,
  reassign,
  saveGrade,
  taskView,
} from "./campaigns";

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

const scopeRows = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from campaign_assignment_items`))[0].n;

const fresh: { id: number }[] = [];
const addExpert = async (n: number) =>
  fresh.push(
    await createUser(t.db, "cli", {
      email: `extra${n}@test.local`,
      name: `Extra ${n}`,
      roles: ["expert"],
      password: "long-enough-1",
    }),
  );
const assignmentOf = async (expertId: number, proposalId: number) =>
  (
    await t.db.execute<{ id: number }>(
      sql`select id from campaign_assignments where campaign_id = ${campaignId} and expert_id = ${expertId} and proposal_id = ${proposalId}`,
    )
  )[0].id;

it("gives each chosen pair r new experts, scoped to the chosen pairs of its proposal, in one transaction", async () => {
  const before = await assignmentCount();
  // The demo's experts all have these proposals already: nobody is eligible, nothing is written.
  const ids = items.map((i) => i.id).sort((a, b) => a - b);
  await expect(requestMoreGrades(t.db, "cli", campaignId, ids, 1)).rejects.toThrow(
    /has only 0 eligible experts who never had it, for 1 more grade;/,
  );
  expect(await assignmentCount()).toBe(before);
  expect(await scopeRows()).toBe(0);

  for (const n of [1, 2]) await addExpert(n);
  // Two more grades for three pairs of two proposals: the two new experts take both proposals, one
  // assignment per (expert, proposal), each covering only the chosen pairs.
  expect(await requestMoreGrades(t.db, "cli", campaignId, ids, 2)).toEqual({
    pairs: 3,
    proposals: 2,
    assignments: 4,
    extended: 0,
  });
  const scoped = await t.db.execute<{ proposalId: number; expertId: number; items: number[] }>(
    sql`select a.proposal_id as "proposalId", a.expert_id as "expertId",
          array_agg(s.item_id order by s.item_id) as items
        from campaign_assignments a join campaign_assignment_items s on s.assignment_id = a.id
        where a.campaign_id = ${campaignId} group by a.id order by 1, 2`,
  );
  const proposals = [...new Set(items.map((i) => i.proposalId))];
  expect(scoped).toEqual(
    proposals.flatMap((p) =>
      fresh.slice(0, 2).map((e) => ({
        proposalId: p,
        expertId: e.id,
        items: ids.filter((id) => items.find((i) => i.id === id)!.proposalId === p),
      })),
    ),
  );
  // Exactly r assignments cover each chosen pair.
  const perPair = await t.db.execute<{ itemId: number; n: number }>(
    sql`select item_id as "itemId", count(*)::int as n from campaign_assignment_items group by 1 order by 1`,
  );
  expect(perPair).toEqual(ids.map((itemId) => ({ itemId, n: 2 })));
  const [audit] = await t.db.execute<{ detail: { raters: number; assignments: number; grades: number } }>(
    sql`select detail from audit_log where action = 'campaign.grades.request'`,
  );
  expect(audit.detail).toMatchObject({ items: ids, raters: 2, assignments: 4, grades: 6 });

  // Never the same expert twice on a pair (nor on its proposal): with a third expert, one is left for
  // the pair, so two more grades are refused and nothing is written.
  await addExpert(3);
  await expect(requestMoreGrades(t.db, "cli", campaignId, [items[0].id], 2)).rejects.toThrow(/has only 1/);
  expect(await assignmentCount()).toBe(before + 4);
  expect(await scopeRows()).toBe(4 + 2);
}, 120_000);

it("shows, counts and accepts only the scoped pairs on the expert's task, still blind", async () => {
  const [p1] = items;
  const expert = fresh[0].id;
  const assignmentId = await assignmentOf(expert, p1.proposalId);
  const chosen = items
    .filter((i) => i.proposalId === p1.proposalId)
    .map((i) => i.id)
    .sort((a, b) => a - b);
  const view = await taskView(t.db, expert, assignmentId);
  expect(view.cards.map((c) => c.id).sort((a, b) => a - b)).toEqual(chosen);
  expect(view.cards.map((c) => c.position)).toEqual([1, 2]);
  for (const card of view.cards)
    expect(Object.keys(card).sort()).toEqual([
      "alias",
      "grade",
      "id",
      "keywords",
      "position",
      "rationale",
      "summary",
    ]);
  const own = await expertAssignments(t.db, expert);
  expect(own.map((a) => a.total).sort()).toEqual([1, 2]);

  // Another pair of the same proposal is refused by name (its alias) and nothing is saved.
  const [outside] = await t.db.execute<{ id: number; alias: string }>(
    sql`select id, alias from campaign_items where campaign_id = ${campaignId} and proposal_id = ${p1.proposalId}
        and id not in (${chosen[0]}, ${chosen[1]}) order by id limit 1`,
  );
  const grade = (item: number) =>
    saveGrade(t.db, expert, assignmentId, { item, grade: "3", rationale: "", position: 1, timeSpentMs: 10 });
  await expect(grade(outside.id)).rejects.toMatchObject({
    status: 403,
    message: `Card ${outside.alias} is not one of the pairs this assignment asks you to grade.`,
  });
  const graded = async () =>
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ratings where assignment_id = ${assignmentId}`,
      )
    )[0].n;
  expect(await graded()).toBe(0);

  // Two grades asked per chosen pair and none given yet; a grade given leaves one on its way.
  const single = items.find((i) => i.proposalId !== p1.proposalId)!.id;
  const pending = async () => Object.fromEntries(await pendingGrades(t.db, campaignId));
  expect(await pending()).toEqual({ [chosen[0]]: 2, [chosen[1]]: 2, [single]: 2 });

  // Finish asks for the scoped pairs only, then the monitor counts 2 of 2.
  await grade(chosen[0]);
  expect(await pending()).toEqual({ [chosen[0]]: 1, [chosen[1]]: 2, [single]: 2 });
  await expect(finishAssignment(t.db, expert, assignmentId)).rejects.toThrow("1 card is not graded yet.");
  await grade(chosen[1]);
  await finishAssignment(t.db, expert, assignmentId);
  const row = (await proposalProgress(t.db, campaignId)).find((r) => r.assignmentId === assignmentId)!;
  expect([row.graded, row.total, row.finishedAt !== null, row.scoped]).toEqual([2, 2, true, true]);
  const launched = (await proposalProgress(t.db, campaignId)).find(
    (r) => !fresh.some((f) => f.id === r.expertId),
  )!;
  expect(launched.scoped).toBe(false);
  const mine = (await campaignProgress(t.db, campaignId)).perExpert.find((e) => e.expertId === expert)!;
  expect([mine.assignments, mine.finished, mine.graded, mine.total]).toEqual([2, 1, 2, 3]);
});

it("passes a scoped assignment's pairs on when it is reassigned", async () => {
  const single = items[2];
  const old = await assignmentOf(fresh[1].id, single.proposalId);
  await reassign(t.db, "cli", campaignId, old, fresh[2].id);
  const taken = await assignmentOf(fresh[2].id, single.proposalId);
  expect((await taskView(t.db, fresh[2].id, taken)).cards.map((c) => c.id)).toEqual([single.id]);
});

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

it("brings an expert's earlier scoped assignment back with the whole pool when whole-pool work is reassigned to them", async () => {
  // The second new expert's scoped assignment on the single pair's proposal went to the third (above),
  // so it is inactive; a launch assignment on that proposal, unfinished, now goes back to them.
  const single = items[2];
  const earlier = await assignmentOf(fresh[1].id, single.proposalId);
  const [launched] = await t.db.execute<{ id: number }>(
    sql`update campaign_assignments set finished_at = null
        where id = (select a.id from campaign_assignments a where a.campaign_id = ${campaignId}
          and a.proposal_id = ${single.proposalId} and a.active and a.expert_id not in (${fresh[0].id}, ${fresh[1].id}, ${fresh[2].id})
          and not exists (select 1 from campaign_assignment_items s where s.assignment_id = a.id) order by a.id limit 1)
        returning id`,
  );
  await t.db.execute(sql`update campaign_assignments set finished_at = now() where id = ${earlier}`);
  await reassign(t.db, "cli", campaignId, launched.id, fresh[1].id);
  const view = await taskView(t.db, fresh[1].id, earlier);
  const [pool] = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from campaign_items where campaign_id = ${campaignId} and proposal_id = ${single.proposalId}`,
  );
  expect(view.cards.length).toBe(pool.n);
  // It has pairs without a grade again, so it is no longer finished.
  expect(view.assignment.finished).toBe(false);
});

it("adds another pair of a proposal to the scoped assignments that lack it, and opens a finished one again", async () => {
  const [p1] = items;
  const chosen = items.filter((i) => i.proposalId === p1.proposalId).map((i) => i.id);
  const [other] = await t.db.execute<{ id: number; name: string }>(
    sql`select i.id, p.external_id || ' / ' || c.external_id as name from campaign_items i
        join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
        where i.campaign_id = ${campaignId} and i.proposal_id = ${p1.proposalId} and i.id not in (${chosen[0]}, ${chosen[1]})
        order by i.id limit 1`,
  );
  // The first two new experts hold this proposal's chosen pairs (the first finished them); the third never had it.
  expect(await requestMoreGrades(t.db, "cli", campaignId, [other.id], 3)).toEqual({
    pairs: 1,
    proposals: 1,
    assignments: 1,
    extended: 2,
  });
  const first = await assignmentOf(fresh[0].id, p1.proposalId);
  const view = await taskView(t.db, fresh[0].id, first);
  expect(view.cards.map((c) => c.id).sort((a, b) => a - b)).toEqual(
    [...chosen, other.id].sort((a, b) => a - b),
  );
  expect(view.assignment.finished).toBe(false);
  const third = await assignmentOf(fresh[2].id, p1.proposalId);
  expect((await taskView(t.db, fresh[2].id, third)).cards.map((c) => c.id)).toEqual([other.id]);

  // Everyone eligible has that pair now: refused by its name, nothing written.
  const rows = await scopeRows();
  await expect(requestMoreGrades(t.db, "cli", campaignId, [other.id], 1)).rejects.toMatchObject({
    status: 409,
    message: `Pair ${other.name} has only 0 eligible experts who never had it, for 1 more grade; invite more experts or ask for fewer.`,
  });
  expect(await scopeRows()).toBe(rows);
  // The third expert lacks the first chosen pair: it joins their assignment rather than a new one.
  expect(await requestMoreGrades(t.db, "cli", campaignId, [chosen[0]], 1)).toMatchObject({
    assignments: 0,
    extended: 1,
  });
  expect((await taskView(t.db, fresh[2].id, third)).cards.map((c) => c.id).sort((a, b) => a - b)).toEqual(
    [chosen[0], other.id].sort((a, b) => a - b),
  );
});
