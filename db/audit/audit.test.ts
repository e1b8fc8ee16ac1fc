import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo, DEMO_EXPERIMENT } from "../../scripts/demo/seed";
import { createUser } from "../accounts/users";
import { auditLog } from "../schema";
import { recordAudit } from "./audit";
import { importFile } from "../import";
import {
  createApiKey,
  createExperiment,
  getExperiment,
  revokeApiKey,
  setExperimentStatus,
} from "../experiments/experiments";
import { closeCampaign, createCampaign, launchCampaign, reassign } from "../campaigns/campaigns";
import { adjudicate } from "../campaigns/campaign-data";
import { createSnapshot } from "../snapshots/snapshots";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { campaignSchema } from "../../scripts/inputs/campaigns";

let t: TestDatabase;
let admin: { id: number; name: string; email: string };
let analyst: { id: number; name: string; email: string };
const experts: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 16, candidates: 300, seed: "audit-test" });
  admin = await createUser(t.db, "cli", {
    email: "ada@test.local",
    name: "Ada",
    roles: ["admin"],
    password: "long-enough-1",
  });
  analyst = await createUser(t.db, "cli", {
    email: "alan@test.local",
    name: "Alan",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  for (const n of [1, 2, 3]) {
    const judge = await createUser(t.db, "cli", {
      email: `judge${n}@test.local`,
      name: `Judge ${n}`,
      roles: ["expert"],
      password: "long-enough-1",
    });
    experts.push(judge.email);
  }
});
afterAll(() => t.drop());

/** The entries written since `after` (an entry id), oldest first. */
async function entriesAfter(after: number) {
  return t.db.select().from(auditLog).where(gt(auditLog.id, after)).orderBy(asc(auditLog.id));
}
async function lastId() {
  const [row] = await t.db.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)::int` }).from(auditLog);
  return row.id;
}
const ada = () => ({ actorId: admin.id, actorLabel: "Ada <ada@test.local>" });

describe("audit log", () => {
  it("records the demo seed's writes as the CLI's", async () => {
    const seeded = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `experiment ${DEMO_EXPERIMENT}`))
      .orderBy(asc(auditLog.id));
    expect(seeded.map((e) => [e.action, e.actorLabel, e.actorId])).toEqual([
      ["experiment.create", "cli", null],
      ["experiment.start", "cli", null],
      // The demo's guardrails (scripts/demo/seed.ts, DEMO_GUARDRAILS).
      ["experiment.analysis", "cli", null],
    ]);
  });

  it("records an import with its entity, file name and counts, and nothing for a file that imported nothing", async () => {
    const before = await lastId();
    const file = "key,name\naudit-a,Audit A\naudit-b,Audit B\n";
    await importFile(t.db, admin, "subjects", file, "csv", { fileName: "subjects.csv" });
    await importFile(t.db, admin, "subjects", "key,name\naudit-a,Audit A\naudit-b,Renamed\n", "csv", {
      fileName: "again.csv",
    });
    expect(
      (await importFile(t.db, admin, "subjects", "key,nom\nx,y\n", "csv", { fileName: "bad.csv" })).ok,
    ).toBe(false);
    const entries = await entriesAfter(before);
    expect(
      entries.map((e) => ({
        action: e.action,
        target: e.target,
        detail: e.detail,
        actorId: e.actorId,
        actorLabel: e.actorLabel,
      })),
    ).toEqual([
      {
        action: "data.import",
        target: "subjects",
        detail: { file: "subjects.csv", format: "csv", rows: 2, added: 2, updated: 0, unchanged: 0 },
        ...ada(),
      },
      {
        action: "data.import",
        target: "subjects",
        detail: { file: "again.csv", format: "csv", rows: 2, added: 0, updated: 1, unchanged: 1 },
        ...ada(),
      },
    ]);
  });

  it("records experiments created, started and stopped, and nothing for a refused change", async () => {
    const before = await lastId();
    const arms = [
      { key: "A", system: "baseline", weight: 0.5 },
      { key: "B", system: "challenger", weight: 0.5 },
    ];
    const input = experimentSchema.parse({ key: "audited", name: "Audited", arms, control: "A" });
    await createExperiment(t.db, admin, input);
    await setExperimentStatus(t.db, admin, "audited", "running");
    await expect(setExperimentStatus(t.db, admin, "audited", "running")).rejects.toThrow(
      "only a draft experiment can be started",
    );
    await setExperimentStatus(t.db, "cli", "audited", "stopped");
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.action, e.target, e.actorLabel])).toEqual([
      ["experiment.create", "experiment audited", "Ada <ada@test.local>"],
      ["experiment.start", "experiment audited", "Ada <ada@test.local>"],
      ["experiment.stop", "experiment audited", "cli"],
    ]);
    expect(entries[0].detail).toMatchObject({ name: "Audited", control: "A", arms });
  });

  it("records API keys created and revoked by id, prefix and expiry, never the key or its hash", async () => {
    const before = await lastId();
    const expiresAt = new Date("2031-01-01T00:00:00Z");
    const created = await createApiKey(t.db, admin, DEMO_EXPERIMENT, { expiresAt });
    const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
    await revokeApiKey(t.db, admin, experiment.id, created.id);
    await revokeApiKey(t.db, admin, experiment.id, created.id); // already revoked: no change, no entry
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.action, e.target, e.detail])).toEqual([
      [
        "experiment.key.create",
        `experiment ${DEMO_EXPERIMENT}`,
        { keyId: created.id, prefix: created.prefix, expiresAt: "2031-01-01T00:00:00.000Z" },
      ],
      [
        "experiment.key.revoke",
        `experiment ${DEMO_EXPERIMENT}`,
        { keyId: created.id, prefix: created.prefix },
      ],
    ]);
    const [{ hash }] = await t.db.execute<{ hash: string }>(
      sql`select hash from experiment_api_keys where id = ${created.id}`,
    );
    const stored = JSON.stringify(entries);
    expect(stored).not.toContain(created.key.slice(12));
    expect(stored).not.toContain(hash);
  });

  it("records campaigns created, launched and closed, reassignments and adjudications", async () => {
    const before = await lastId();
    const input = campaignSchema.parse({
      name: "Audited campaign",
      systems: ["baseline"],
      depth: 5,
      raters: 2,
      experts,
    });
    const campaign = await createCampaign(t.db, admin, input);
    const launched = await launchCampaign(t.db, admin, campaign.id);
    const [assignment] = await t.db.execute<{ id: number; expert_id: number; external_id: string }>(sql`
      select a.id, a.expert_id, p.external_id from campaign_assignments a join proposals p on p.id = a.proposal_id
      where a.campaign_id = ${campaign.id} order by a.id limit 1`);
    // The invited expert not yet on that proposal (three invited, two raters each).
    const [free] = await t.db.execute<{ user_id: number }>(sql`
      select ce.user_id from campaign_experts ce where ce.campaign_id = ${campaign.id} and ce.user_id not in (
        select expert_id from campaign_assignments
        where campaign_id = ${campaign.id} and proposal_id = (select proposal_id from campaign_assignments where id = ${assignment.id}))
      limit 1`);
    await reassign(t.db, admin, campaign.id, assignment.id, free.user_id);
    const [item] = await t.db.execute<{ id: number }>(
      sql`select id from campaign_items where campaign_id = ${campaign.id} order by id limit 1`,
    );
    await adjudicate(t.db, admin, campaign.id, item.id, 4, "read the profile");
    await adjudicate(t.db, admin, campaign.id, item.id, 3, "second look");
    await closeCampaign(t.db, admin, campaign.id);
    await expect(closeCampaign(t.db, admin, campaign.id)).rejects.toMatchObject({ status: 409 });
    const entries = await entriesAfter(before);
    expect(entries.every((e) => e.actorId === admin.id && e.target === `campaign ${campaign.id}`)).toBe(true);
    expect(entries.map((e) => [e.action, e.detail])).toEqual([
      [
        "campaign.create",
        { name: "Audited campaign", systems: ["baseline"], depth: 5, raters: 2, experts: 3, proposals: 16 },
      ],
      [
        "campaign.launch",
        { name: "Audited campaign", items: launched.items, assignments: launched.assignments },
      ],
      [
        "campaign.reassign",
        {
          assignmentId: assignment.id,
          proposal: assignment.external_id,
          fromExpertId: assignment.expert_id,
          toExpertId: free.user_id,
        },
      ],
      [
        "campaign.adjudicate",
        expect.objectContaining({ itemId: item.id, grade: 4, previousGrade: null, note: "read the profile" }),
      ],
      [
        "campaign.adjudicate",
        expect.objectContaining({ itemId: item.id, grade: 3, previousGrade: 4, note: "second look" }),
      ],
      ["campaign.close", { name: "Audited campaign" }],
    ]);
  });

  it("records snapshots created by a user and by the CLI", async () => {
    const before = await lastId();
    const byAnalyst = await createSnapshot(t.db, analyst, {
      kind: "offline",
      ks: [10],
      B: 100,
      seed: "audit",
    });
    const byCli = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100, seed: "audit-cli" }); // same seed: the same snapshot
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.action, e.target, e.actorId, e.actorLabel])).toEqual([
      ["snapshot.create", `snapshot ${byAnalyst.id}`, analyst.id, "Alan <alan@test.local>"],
      ["snapshot.create", `snapshot ${byCli.id}`, null, "cli"],
    ]);
    expect(entries[0].detail).toEqual({
      kind: "offline",
      parameters: byAnalyst.parameters,
      sha256: byAnalyst.sha256,
    });
    expect([byAnalyst.createdByLabel, byCli.createdByLabel]).toEqual(["Alan", "cli"]);
  });

  it("writes no entry when the change is rolled back, and no change without its entry", async () => {
    const before = await lastId();
    await expect(
      t.db.transaction(async (tx) => {
        await recordAudit(tx, admin, "experiment.start", "experiment nowhere");
        throw new Error("the write failed after the entry");
      }),
    ).rejects.toThrow("the write failed");
    expect(await entriesAfter(before)).toEqual([]);
  });

  it("is append-only: the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    await recordAudit(t.db, admin, "snapshot.create", "snapshot 0");
    const id = await lastId();
    // drizzle wraps the database's error; its own message is the cause's.
    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => "accepted",
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    const refused = `the audit log is append-only: entry ${id} cannot be changed or deleted`;
    expect(
      await refusal(t.db.execute(sql`update audit_log set actor_label = 'someone else' where id = ${id}`)),
    ).toBe(refused);
    expect(await refusal(t.db.execute(sql`delete from audit_log where id = ${id}`))).toBe(refused);
    expect(await refusal(t.db.execute(sql`truncate audit_log`))).toBe(
      "the audit log is append-only: it cannot be truncated",
    );
    const [kept] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.id, id), eq(auditLog.actorLabel, "Ada <ada@test.local>")));
    expect(kept.action).toBe("snapshot.create");
  });

  it("records the CLI's writes as cli (assay import)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-audit-"));
    const file = path.join(dir, "cli-subjects.csv");
    fs.writeFileSync(file, "key,name\ncli-subject,From the CLI\n");
    const before = await lastId();
    const root = path.resolve(__dirname, "../..");
    const args = [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      path.join(root, "scripts/cli/assay.ts"),
      "import",
      "subjects",
      file,
    ];
    await promisify(execFile)(process.execPath, args, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.url },
    });
    fs.rmSync(dir, { recursive: true, force: true });
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.action, e.actorId, e.actorLabel, e.detail])).toEqual([
      [
        "data.import",
        null,
        "cli",
        { file: "cli-subjects.csv", format: "csv", rows: 1, added: 1, updated: 0, unchanged: 0 },
      ],
    ]);
  });
});
