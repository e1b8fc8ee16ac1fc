import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createUser } from "../accounts/users";
import { createCampaign, eligibleExperts, launchCampaign } from "../campaigns/campaigns";
import { campaignSchema } from "../../scripts/inputs/campaigns";
import { loadOfflineInput } from "./offline-input";
import { runAssay } from "../../test/run-cli";

/**
 * Conflicts of interest: the `conflicts` import (whole file or nothing), and campaign launch never
 * giving a proposal to an expert who is a candidate conflicted with it.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const ok = async (entity: Parameters<typeof importFile>[2], csv: string) =>
    expect(await importFile(t.db, "cli", entity, csv, "csv")).toMatchObject({ ok: true });
  await ok("subjects", "key,name\nml,Machine learning\n");
  await ok(
    "proposals",
    "external_id,title,subject,date\nP1,One,ml,2024-01-15\nP2,Two,ml,2024-09-01\nP3,Three,ml,\n",
  );
  // C9 is the expert rater3@test.local as a candidate (same email); no system lists C9 anywhere.
  await ok(
    "candidates",
    "external_id,name,email,profile_date\nC1,Ann,,2023-05-01\nC2,Bob,,2025-01-01\nC3,Cy,,\nC9,Rae,rater3@test.local,\n",
  );
  await ok("systems", "key\nsys\n");
  await ok(
    "lists",
    "system,proposal,rank,candidate\nsys,P1,1,C1\nsys,P1,2,C2\nsys,P2,1,C2\nsys,P2,2,C3\nsys,P3,1,C3\n",
  );
  await ok("gold", "proposal,candidate\nP1,C2\nP2,C2\nP3,C3\n");
  for (const n of [1, 2, 3])
    await createUser(t.db, "cli", {
      email: `rater${n}@test.local`,
      name: `Rater ${n}`,
      roles: ["expert"],
      password: "long-enough-1",
    });
});
afterAll(() => t.drop());

const conflictCount = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from conflicts`))[0].n;

describe("the conflicts import", () => {
  it("refuses a file with an unknown proposal, an unknown candidate or a repeated pair, naming each line, and writes nothing", async () => {
    const file = "proposal,candidate,reason\nP1,C9,co-author\nPX,C1,colleague\nP2,CX,\nP1,C9,again\n";
    const result = await importFile(t.db, "cli", "conflicts", file, "csv");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { line: 3, message: "unknown proposal PX" },
      { line: 4, message: "unknown candidate CX" },
      { line: 5, message: "conflict of C9 with P1 repeats line 2" },
    ]);
    expect(await conflictCount()).toBe(0);
  });

  it("refuses an unknown column and a missing one", async () => {
    expect(
      await importFile(t.db, "cli", "conflicts", "proposal,candidate,why\nP1,C9,x\n", "csv"),
    ).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringMatching(/unknown column why/) }],
    });
    expect(await importFile(t.db, "cli", "conflicts", "proposal,reason\nP1,x\n", "csv")).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringMatching(/missing column candidate/) }],
    });
    expect(await conflictCount()).toBe(0);
  });

  it("imports a good file, then updates a reason and leaves the rest unchanged", async () => {
    expect(
      await importFile(
        t.db,
        "cli",
        "conflicts",
        "proposal,candidate,reason\nP1,C9,co-author\nP2,C3,same department\n",
        "csv",
      ),
    ).toMatchObject({ ok: true, counts: { added: 2, updated: 0, unchanged: 0 } });
    expect(
      await importFile(
        t.db,
        "cli",
        "conflicts",
        '{"proposal":"P1","candidate":"C9","reason":"co-author"}\n{"proposal":"P2","candidate":"C3","reason":"former student"}\n',
        "jsonl",
      ),
    ).toMatchObject({
      ok: true,
      counts: { added: 0, updated: 1, unchanged: 1 },
    });
    const input = await loadOfflineInput(t.db);
    expect(input.conflicts).toEqual(
      new Map([
        ["P1", new Map([["C9", "co-author"]])],
        ["P2", new Map([["C3", "former student"]])],
      ]),
    );
    expect(input.proposals.map((p) => p.date)).toEqual(["2024-01-15", "2024-09-01", null]);
    expect(input.profileDates).toEqual(
      new Map([
        ["C1", "2023-05-01"],
        ["C2", "2025-01-01"],
      ]),
    );
  });

  it("refuses a date that is not a real day", async () => {
    const result = await importFile(
      t.db,
      "cli",
      "proposals",
      "external_id,title,date\nP4,Four,2024-02-30\nP5,Five,15/01/2024\n",
      "csv",
    );
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { line: 2, message: "date is not a real calendar day" },
        { line: 3, message: "date must be a date written YYYY-MM-DD" },
      ],
    });
  });
});

describe("campaign launch and conflicts", () => {
  it("never assigns a proposal to an expert who is a candidate conflicted with it", async () => {
    const experts = ["rater1@test.local", "rater2@test.local", "rater3@test.local"];
    const all = await createCampaign(
      t.db,
      "cli",
      campaignSchema.parse({ name: "All three", systems: ["sys"], depth: 10, raters: 3, experts }),
    );
    // Three raters per proposal from three experts, one of them conflicted with P1: impossible, said so.
    await expect(launchCampaign(t.db, "cli", all.id)).rejects.toThrow(
      "Proposal P1 has only 2 eligible experts for 3 raters",
    );
    const two = await createCampaign(
      t.db,
      "cli",
      campaignSchema.parse({ name: "Two each", systems: ["sys"], depth: 10, raters: 2, experts }),
    );
    await launchCampaign(t.db, "cli", two.id);
    const rows = await t.db.execute<{ proposal: string; email: string }>(sql`
      select p.external_id as proposal, u.email from campaign_assignments a join proposals p on p.id = a.proposal_id
      join users u on u.id = a.expert_id where a.campaign_id = ${two.id} order by 1, 2`);
    expect(rows.filter((r) => r.proposal === "P1").map((r) => r.email)).toEqual([
      "rater1@test.local",
      "rater2@test.local",
    ]);
    expect(rows).toHaveLength(6);
    // Nor can the conflicted expert take over P1's work later.
    const [p1] = await t.db.execute<{ id: number }>(sql`select id from proposals where external_id = 'P1'`);
    const eligible = (await eligibleExperts(t.db, two.id, [p1.id])).get(p1.id)!;
    expect(eligible.map((e) => e.name)).not.toContain("Rater 3");
  });
});

describe("campaign launch and a convener who is also an expert", () => {
  it("never assigns a proposal to an expert who convenes it, nor offers it to them later", async () => {
    const both = await createUser(t.db, "cli", {
      email: "both@test.local",
      name: "Both Roles",
      roles: ["expert", "convener"],
      password: "long-enough-1",
    });
    await t.db.execute(sql`insert into convener_assignments (user_id, proposal_id)
      select ${both.id}, id from proposals where external_id = 'P2'`);
    const experts = ["rater1@test.local", "rater2@test.local", "both@test.local"];
    const campaign = await createCampaign(
      t.db,
      "cli",
      campaignSchema.parse({ name: "Convener too", systems: ["sys"], depth: 10, raters: 2, experts }),
    );
    await launchCampaign(t.db, "cli", campaign.id);
    const rows = await t.db.execute<{ proposal: string; email: string }>(sql`
      select p.external_id as proposal, u.email from campaign_assignments a join proposals p on p.id = a.proposal_id
      join users u on u.id = a.expert_id where a.campaign_id = ${campaign.id} order by 1, 2`);
    expect(rows.filter((r) => r.proposal === "P2").map((r) => r.email)).toEqual([
      "rater1@test.local",
      "rater2@test.local",
    ]);
    // They grade the proposals they do not convene, as any expert.
    expect(rows.filter((r) => r.email === "both@test.local").length).toBeGreaterThan(0);
    const [p2] = await t.db.execute<{ id: number }>(sql`select id from proposals where external_id = 'P2'`);
    const eligible = (await eligibleExperts(t.db, campaign.id, [p2.id])).get(p2.id)!;
    expect(eligible.map((e) => e.name)).not.toContain("Both Roles");
  });
});

describe("assay offline with conflicts, a window and a stratified bootstrap", () => {
  it("reports COI@K and leakage, and records the view in the parameters", async () => {
    const run = await runAssay(
      [
        "offline",
        "--json",
        "--k",
        "1,2",
        "--bootstrap",
        "200",
        "--exclude-conflicts",
        "--stratify",
        "subject",
        "--from",
        "2024-01-01",
        "--to",
        "2024-12-31",
      ],
      { DATABASE_URL: t.url },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.parameters).toMatchObject({
      stratify: "subject",
      excludeConflicts: true,
      window: { from: "2024-01-01", to: "2024-12-31", proposals: 2, undated: 1 },
    });
    // P1 (C1, C2) and P2 (C2, C3): C3 is conflicted with P2 at rank 2 → COI@2 = 1/4; C2's profile (2025) is after both.
    expect(report.systems[0].integrity.conflicts).toEqual([
      { k: 1, slots: 2, conflicted: 0, share: 0 },
      { k: 2, slots: 4, conflicted: 1, share: 0.25 },
    ]);
    expect(report.systems[0].integrity.leakage.map((l: { flagged: number }) => l.flagged)).toEqual([1, 2]);
    const bad = await runAssay(["offline", "--from", "2024-13-01"], { DATABASE_URL: t.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("The window's start (2024-13-01) is not a real calendar day.");
  });
});
