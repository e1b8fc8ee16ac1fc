import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { runAssay } from "../../test/run-cli";
import { seedDemo } from "../../scripts/demo/seed";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { exportCampaign } from "../campaigns/campaign-data";
import { loadExpertLabels } from "../campaigns/campaign-labels";
import { offlineResult } from "./offline";

/** The offline report against a campaign's grades of the same lists (issue 24, what the ground truth is worth). */
let t: TestDatabase;
let campaignId = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 20, candidates: 200, seed: "ground-truth" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
}, 120_000);
afterAll(() => t.drop());

describe("expert grades beside the committees", () => {
  it("takes each pair's label from the campaign as its qrels export does", async () => {
    const labels = (await loadExpertLabels(t.db))!;
    expect(labels.source).toMatch(new RegExp(`^campaign ${campaignId} `));
    const qrels = (await exportCampaign(t.db, campaignId, "qrels")).body.trim().split("\n");
    expect([...labels.labels.values()].reduce((n, m) => n + m.size, 0)).toBe(qrels.length);
    for (const line of qrels.slice(0, 20)) {
      const [proposal, , candidate, rel] = line.split(/\s+/);
      expect(labels.labels.get(proposal)!.get(candidate)).toBe(Number(rel) + 1);
    }
  });

  it("puts the ground-truth section on the offline report, under the campaign asked for", async () => {
    const { parameters, result } = await offlineResult(t.db, { B: 200, campaign: campaignId }, runInProcess);
    expect(parameters).toMatchObject({ campaign: campaignId });
    const g = result!.groundTruth!;
    expect(g.proposals).toBeGreaterThan(0);
    const { members, nonMembers } = g.grades;
    expect(members.counts.reduce((a, b) => a + b, 0)).toBe(members.pairs);
    expect(members.pairs + nonMembers.pairs).toBeGreaterThan(members.pairs);
    expect(g.systems.map((s) => s.key)).toEqual(result!.systems.map((s) => s.key));
    expect(g.agreement.map((a) => a.measure)).toEqual(["Success@10", "RR@10", "nDCG@10", "AP"]);
  });

  it("refuses an unknown campaign with exit 2, naming it", async () => {
    const run = await runAssay(["offline", "--campaign", "9999", "--bootstrap", "10"], {
      DATABASE_URL: t.url,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("There is no campaign 9999.");
  }, 120_000);

  it("prints the section in the terminal and as CSV rows", async () => {
    const run = await runAssay(["offline", "--bootstrap", "20", "--csv"], { DATABASE_URL: t.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ground truth: committee members");
    expect(run.stdout).toMatch(/ground truth: Kendall tau-b,\d+,AP,/);
    // The overall K_hit and the Rank(g) distribution, each with its interval (lower, upper).
    expect(run.stdout).toMatch(/^challenger,overall,\d+,K_hit median,[\d.]+,[\d.]+,[\d.]+,/m);
    expect(run.stdout).toMatch(/^challenger,overall,\d+,Rank\(g=2\) p90,[\d.]+,[\d.]+,[\d.]+,/m);
    expect(run.stdout).toMatch(/^challenger,overall,\d+,Rank\(g=1\) mean,[\d.]+,[\d.]+,[\d.]+,/m);
  }, 120_000);

  it("reads the grades from the campaign's qrels export as from the campaign itself (--grades FILE)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-grades-"));
    const file = path.join(dir, "campaign.qrels");
    fs.writeFileSync(file, (await exportCampaign(t.db, campaignId, "qrels")).body);
    const args = ["offline", "--bootstrap", "50", "--json"];
    const [fromFile, fromCampaign] = await Promise.all([
      runAssay([...args, "--grades", file], { DATABASE_URL: t.url }),
      runAssay([...args, "--campaign", String(campaignId)], { DATABASE_URL: t.url }),
    ]);
    expect([fromFile.code, fromCampaign.code]).toEqual([0, 0]);
    const a = JSON.parse(fromFile.stdout);
    const b = JSON.parse(fromCampaign.stdout);
    // The same report, section by section, figure by figure; only the grades' source reads differently.
    expect(a.groundTruth.source).toBe(`grades file ${file}`);
    expect(b.groundTruth.source).toMatch(new RegExp(`^campaign ${campaignId} `));
    expect(a.groundTruth.grades.members.pairs).toBeGreaterThan(0);
    expect({ ...a, groundTruth: { ...a.groundTruth, source: null } }).toEqual({
      ...b,
      groundTruth: { ...b.groundTruth, source: null },
    });

    // A bad line names itself, exit 2, and nothing is computed.
    fs.appendFileSync(file, "no-such-proposal 0 x 2\n");
    const bad = await runAssay([...args, "--grades", file], { DATABASE_URL: t.url });
    const lines = fs.readFileSync(file, "utf8").trim().split("\n").length;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--grades: ${file} line ${lines}: unknown proposal "no-such-proposal".`);
    expect(bad.stdout).toBe("");
    fs.rmSync(dir, { recursive: true });
  }, 240_000);
});
