import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../accounts/users";
import {
  closeCampaign,
  createCampaign,
  deleteCampaign,
  eligibleExperts,
  expertAssignments,
  finishAssignment,
  launchCampaign,
  reassign,
  reassignChoices,
  reopenCampaign,
  saveGrade,
  taskView,
  updateCampaign,
} from "./campaigns";
import { campaignSchema, gradeSchema } from "../../scripts/inputs/campaigns";

let t: TestDatabase;
let experts: { id: number; email: string }[] = [];
let conflicted: { id: number; email: string };

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 16, candidates: 300, seed: "campaign-test" });
  experts = [];
  for (const n of [1, 2, 3, 4])
    experts.push(
      await createUser(t.db, "cli", {
        email: `rater${n}@test.local`,
        name: `Rater ${n}`,
        roles: ["expert"],
        password: "long-enough-1",
      }),
    );
  // An expert who is also a candidate (same email) in some pools: never assigned those proposals.
  const [candidate] = await t.db.execute<{ email: string }>(
    sql`select c.email from candidates c join list_items li on li.candidate_id = c.id join ranked_lists rl on rl.id = li.list_id where li.rank <= 10 limit 1`,
  );
  conflicted = await createUser(t.db, "cli", {
    email: candidate.email,
    name: "Conflicted",
    roles: ["expert"],
    password: "long-enough-1",
  });
});
afterAll(() => t.drop());

const input = (extra: Partial<Record<string, unknown>> = {}) =>
  campaignSchema.parse({
    name: "Blind test",
    systems: ["baseline", "challenger"],
    depth: 10,
    raters: 2,
    experts: [...experts.map((e) => e.email), conflicted.email],
    ...extra,
  });

describe("campaigns", () => {
  it("validates input with sentences", () => {
    const bad = campaignSchema.safeParse({ name: "", systems: [], depth: 0, raters: 3, experts: ["x"] });
    expect(bad.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining([
        "name is missing",
        "choose at least one system whose lists are pooled",
        "the pool depth must be at least 1",
        "every expert must be an email address",
      ]),
    );
    expect(gradeSchema.safeParse({ item: 1, grade: "5", position: 1 }).error!.issues[0].message).toBe(
      "grade must be 1, 2, 3, 4 or can't judge",
    );
    for (const grade of ["0", "2.5", "x", undefined])
      expect(gradeSchema.safeParse({ item: 1, grade, position: 1 }).success).toBe(false);
  });

  it("launches once: pools each pair once, gives every proposal exactly r raters, never a conflicted one", async () => {
    const campaign = await createCampaign(t.db, "cli", input());
    const results = await Promise.allSettled([
      launchCampaign(t.db, "cli", campaign.id),
      launchCampaign(t.db, "cli", campaign.id),
      launchCampaign(t.db, "cli", campaign.id),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const perProposal = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from campaign_assignments where campaign_id = ${campaign.id} group by proposal_id`,
    );
    expect(perProposal).toHaveLength(16);
    expect(perProposal.every((r) => r.n === 2)).toBe(true);
    const [pairs] = await t.db.execute<{ n: number; distinct: number }>(
      sql`select count(*)::int as n, count(distinct (proposal_id, candidate_id))::int as distinct from campaign_items where campaign_id = ${campaign.id}`,
    );
    expect(pairs.n).toBe(pairs.distinct);
    const [bad] = await t.db.execute<{ n: number }>(sql`
      select count(*)::int as n from campaign_assignments a join campaign_items i on i.campaign_id = a.campaign_id and i.proposal_id = a.proposal_id
      join candidates c on c.id = i.candidate_id join users u on u.id = a.expert_id where lower(c.email) = lower(u.email) and a.campaign_id = ${campaign.id}`);
    expect(bad.n).toBe(0);
  });

  it("shows an expert a blind task: none of the pooled candidates' names, ids, affiliations, emails, ranks or systems", async () => {
    const [assignment] = await expertAssignments(t.db, experts[0].id);
    const view = await taskView(t.db, experts[0].id, assignment.id);
    const text = JSON.stringify(view);
    const pool = await t.db.execute<{
      name: string;
      external_id: string;
      affiliation: string;
      email: string | null;
    }>(sql`
      select c.name, c.external_id, c.affiliation, c.email from campaign_items i join candidates c on c.id = i.candidate_id
      join campaign_assignments a on a.campaign_id = i.campaign_id and a.proposal_id = i.proposal_id where a.id = ${assignment.id}`);
    expect(pool.length).toBe(view.cards.length);
    for (const c of pool) {
      for (const secret of [c.name, c.external_id, c.affiliation, c.email].filter(Boolean))
        expect(text).not.toContain(secret);
    }
    for (const secret of ["baseline", "challenger", "score", "rank"])
      expect(text.toLowerCase()).not.toContain(secret);
    expect(view.cards.every((c) => /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(c.alias))).toBe(true);
    // The order is stable across reloads (it comes from the assignment's stored seed).
    expect((await taskView(t.db, experts[0].id, assignment.id)).cards.map((c) => c.id)).toEqual(
      view.cards.map((c) => c.id),
    );
  });

  it("refuses another expert's assignment and cards outside the pool", async () => {
    const [assignment] = await expertAssignments(t.db, experts[0].id);
    const stranger = experts.find((e) => e.id !== experts[0].id)!;
    await expect(taskView(t.db, stranger.id, assignment.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      saveGrade(t.db, stranger.id, assignment.id, {
        item: 1,
        grade: "3",
        rationale: "",
        position: 1,
        timeSpentMs: 0,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      saveGrade(t.db, experts[0].id, assignment.id, {
        item: 999_999,
        grade: "3",
        rationale: "",
        position: 1,
        timeSpentMs: 0,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("keeps one grade per expert and card, however many saves race; finishes only when all are graded", async () => {
    const [assignment] = await expertAssignments(t.db, experts[0].id);
    const view = await taskView(t.db, experts[0].id, assignment.id);
    const card = view.cards[0];
    await Promise.all(
      ["1", "2", "3", "4", "cant"].map((grade) =>
        saveGrade(t.db, experts[0].id, assignment.id, {
          item: card.id,
          grade: grade as "1",
          rationale: "why",
          position: card.position,
          timeSpentMs: 100,
        }),
      ),
    );
    const [row] = await t.db.execute<{ n: number; time: number }>(
      sql`select count(*)::int as n, max(time_spent_ms)::int as time from ratings where assignment_id = ${assignment.id} and item_id = ${card.id}`,
    );
    expect(row).toEqual({ n: 1, time: 500 });
    await expect(finishAssignment(t.db, experts[0].id, assignment.id)).rejects.toThrow(/not graded yet/);
    for (const c of view.cards)
      await saveGrade(t.db, experts[0].id, assignment.id, {
        item: c.id,
        grade: "3",
        rationale: "",
        position: c.position,
        timeSpentMs: 10,
      });
    await finishAssignment(t.db, experts[0].id, assignment.id);
    const first = (await taskView(t.db, experts[0].id, assignment.id)).assignment;
    expect(first.finished).toBe(true);
    // A second Finish (Back, another tab) keeps the first date.
    await finishAssignment(t.db, experts[0].id, assignment.id);
    expect((await taskView(t.db, experts[0].id, assignment.id)).assignment.finishedAt).toEqual(
      first.finishedAt,
    );
  });

  it("refuses grades once the campaign is closed", async () => {
    const [assignment] = await expertAssignments(t.db, experts[1].id);
    const view = await taskView(t.db, experts[1].id, assignment.id);
    const [{ campaign_id }] = await t.db.execute<{ campaign_id: number }>(
      sql`select campaign_id from campaign_assignments where id = ${assignment.id}`,
    );
    await closeCampaign(t.db, "cli", campaign_id);
    await expect(
      saveGrade(t.db, experts[1].id, assignment.id, {
        item: view.cards[0].id,
        grade: "2",
        rationale: "",
        position: 1,
        timeSpentMs: 0,
      }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("reopens a closed campaign: grades are accepted again where they were left, logged as campaign.reopen", async () => {
    const [assignment] = await expertAssignments(t.db, experts[1].id);
    const [{ campaign_id, ratings }] = await t.db.execute<{ campaign_id: number; ratings: number }>(
      sql`select a.campaign_id, (select count(*)::int from ratings r where r.assignment_id = a.id) as ratings
          from campaign_assignments a where a.id = ${assignment.id}`,
    );
    await expect(reopenCampaign(t.db, "cli", campaign_id + 1000)).rejects.toMatchObject({ status: 409 });
    await reopenCampaign(t.db, "cli", campaign_id);
    await expect(reopenCampaign(t.db, "cli", campaign_id)).rejects.toThrow(
      "Only a closed campaign can be reopened.",
    );
    const view = await taskView(t.db, experts[1].id, assignment.id);
    expect(view.cards.filter((c) => c.grade !== null)).toHaveLength(ratings);
    const grade = { item: view.cards[0].id, grade: "3" as const, rationale: "", position: 1, timeSpentMs: 0 };
    await saveGrade(t.db, experts[1].id, assignment.id, grade);
    const log = await t.db.execute<{ action: string }>(
      sql`select action from audit_log where target = ${`campaign ${campaign_id}`} order by id`,
    );
    expect(log.map((e) => e.action).slice(-2)).toEqual(["campaign.close", "campaign.reopen"]);
  });

  it("fails the whole launch, writing nothing, when a proposal cannot get r eligible raters", async () => {
    const campaign = await createCampaign(
      t.db,
      "cli",
      input({ raters: 5, experts: [...experts.map((e) => e.email), conflicted.email] }),
    );
    await expect(launchCampaign(t.db, "cli", campaign.id)).rejects.toThrow(/eligible experts? for 5 raters/);
    const [row] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from campaign_items where campaign_id = ${campaign.id}`,
    );
    expect(row.n).toBe(0);
  });
});

describe("reassignment", () => {
  it("moves a stalled assignment to another invited expert, keeping r active raters and refusing conflicts", async () => {
    const campaign = await createCampaign(t.db, "cli", input({ name: "Reassign", raters: 2 }));
    await launchCampaign(t.db, "cli", campaign.id);
    const [a] = await t.db.execute<{ id: number; proposal_id: number; expert_id: number }>(
      sql`select id, proposal_id, expert_id from campaign_assignments where campaign_id = ${campaign.id} limit 1`,
    );
    const taken = (
      await t.db.execute<{ expert_id: number }>(
        sql`select expert_id from campaign_assignments where campaign_id = ${campaign.id} and proposal_id = ${a.proposal_id}`,
      )
    ).map((r) => r.expert_id);
    const free = experts.find((e) => !taken.includes(e.id))!;
    const { reassign } = await import("./campaigns");
    await expect(
      reassign(
        t.db,
        "cli",
        campaign.id,
        a.id,
        taken.find((id) => id !== a.expert_id)!,
      ),
    ).rejects.toThrow(/already have it or are in its pool/);
    await reassign(t.db, "cli", campaign.id, a.id, free.id);
    const active = await t.db.execute<{ expert_id: number }>(
      sql`select expert_id from campaign_assignments where campaign_id = ${campaign.id} and proposal_id = ${a.proposal_id} and active`,
    );
    expect(active.map((r) => r.expert_id).sort()).toEqual(
      [...taken.filter((id) => id !== a.expert_id), free.id].sort(),
    );
    await expect(reassign(t.db, "cli", campaign.id, a.id, free.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("eligible reassignment", () => {
  it("offers only active experts not on the proposal and not in its pool, only for unfinished work, and refuses others", async () => {
    const inactive = await createUser(t.db, "cli", {
      email: "gone@test.local",
      name: "Gone",
      roles: ["expert"],
      password: "long-enough-1",
    });
    await t.db.execute(sql`update users set active = false where id = ${inactive.id}`);
    const analyst = await createUser(t.db, "cli", {
      email: "analyst-r@test.local",
      name: "Analyst R",
      roles: ["analyst"],
      password: "long-enough-1",
    });
    const campaign = await createCampaign(
      t.db,
      "cli",
      input({ name: "Eligibility", raters: 2, experts: experts.slice(0, 2).map((e) => e.email) }),
    );
    await launchCampaign(t.db, "cli", campaign.id);
    // The conflicted expert's own pool: a proposal where they appear as a candidate.
    const [pooled] = await t.db.execute<{ proposal_id: number }>(sql`
      select i.proposal_id from campaign_items i join candidates c on c.id = i.candidate_id where i.campaign_id = ${campaign.id} and lower(c.email) = lower(${conflicted.email}) limit 1`);
    expect(pooled).toBeDefined();
    const eligible = (await eligibleExperts(t.db, campaign.id, [pooled.proposal_id]))
      .get(pooled.proposal_id)!
      .map((e) => e.id);
    expect(eligible).toEqual(expect.arrayContaining([experts[2].id, experts[3].id]));
    for (const id of [experts[0].id, experts[1].id, conflicted.id, inactive.id, analyst.id])
      expect(eligible).not.toContain(id);

    const [a] = await t.db.execute<{ id: number }>(
      sql`select id from campaign_assignments where campaign_id = ${campaign.id} and proposal_id = ${pooled.proposal_id} limit 1`,
    );
    const [done] = await t.db.execute<{ id: number }>(
      sql`update campaign_assignments set finished_at = now() where campaign_id = ${campaign.id} and id <> ${a.id} and id = (select min(id) from campaign_assignments where campaign_id = ${campaign.id} and id <> ${a.id}) returning id`,
    );
    const choices = await reassignChoices(t.db, campaign.id);
    expect(choices.has(done.id)).toBe(false);
    expect(
      choices
        .get(a.id)!
        .map((e) => e.id)
        .sort(),
    ).toEqual([...eligible].sort());

    await expect(reassign(t.db, "cli", campaign.id, a.id, conflicted.id)).rejects.toThrow(
      "Conflicted cannot take this proposal: they already have it or are in its pool (conflict of interest).",
    );
    await expect(reassign(t.db, "cli", campaign.id, a.id, inactive.id)).rejects.toThrow(
      "Only an active expert can take over an assignment.",
    );
    await expect(reassign(t.db, "cli", campaign.id, a.id, analyst.id)).rejects.toThrow(
      "Only an active expert can take over an assignment.",
    );
    await expect(reassign(t.db, "cli", campaign.id, done.id, experts[3].id)).rejects.toThrow(
      "That assignment is finished; only unfinished work can be reassigned.",
    );
    // An expert who was not invited is eligible, and joins the campaign when they take the work over.
    await reassign(t.db, "cli", campaign.id, a.id, experts[3].id);
    const [invited] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from campaign_experts where campaign_id = ${campaign.id} and user_id = ${experts[3].id}`,
    );
    expect(invited.n).toBe(1);
  });
});

describe("draft campaigns", () => {
  const entries = (target: string) =>
    t.db.execute<{ action: string }>(sql`select action from audit_log where target = ${target} order by id`);

  it("edits a draft with the create schema, replacing its scope, and logs campaign.update", async () => {
    const campaign = await createCampaign(t.db, "cli", input({ name: "Draft to edit" }));
    const updated = await updateCampaign(
      t.db,
      "cli",
      campaign.id,
      input({
        name: "Edited draft",
        depth: 5,
        raters: 1,
        experts: [experts[0].email],
        systems: ["baseline"],
      }),
    );
    expect(updated).toMatchObject({ name: "Edited draft", poolDepth: 5, ratersPerProposal: 1 });
    const [counts] = await t.db.execute<{ systems: number; experts: number }>(sql`
      select (select count(*)::int from campaign_systems where campaign_id = ${campaign.id}) as systems,
             (select count(*)::int from campaign_experts where campaign_id = ${campaign.id}) as experts`);
    expect(counts).toEqual({ systems: 1, experts: 1 });
    expect((await entries(`campaign ${campaign.id}`)).map((e) => e.action)).toEqual([
      "campaign.create",
      "campaign.update",
    ]);
    await expect(
      updateCampaign(t.db, "cli", campaign.id, input({ systems: ["no-such-system"] })),
    ).rejects.toThrow("Unknown system no-such-system.");
  });

  it("deletes only a draft, logging campaign.delete; a launched campaign is refused and kept", async () => {
    const draft = await createCampaign(t.db, "cli", input({ name: "Draft to delete" }));
    await deleteCampaign(t.db, "cli", draft.id);
    const [gone] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from campaigns where id = ${draft.id}`,
    );
    expect(gone.n).toBe(0);
    expect((await entries(`campaign ${draft.id}`)).map((e) => e.action)).toEqual([
      "campaign.create",
      "campaign.delete",
    ]);

    const launched = await createCampaign(t.db, "cli", input({ name: "Launched one" }));
    await launchCampaign(t.db, "cli", launched.id);
    await expect(deleteCampaign(t.db, "cli", launched.id)).rejects.toMatchObject({
      status: 409,
      message: "Campaign Launched one is running; only a draft can be deleted.",
    });
    await expect(updateCampaign(t.db, "cli", launched.id, input())).rejects.toMatchObject({
      status: 409,
      message: "Campaign Launched one is running; only a draft can be edited.",
    });
    expect((await entries(`campaign ${launched.id}`)).map((e) => e.action)).toEqual([
      "campaign.create",
      "campaign.launch",
    ]);
  });
});
