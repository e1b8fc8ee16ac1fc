import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { runAssay } from "../../test/run-cli";
import { seedDemo } from "../../scripts/demo/seed";
import { importFile } from "../import";
import { exportCampaign, loadCampaignData } from "./campaign-data";
import { listTruth } from "./campaign-truth";
import { parseQrels } from "../../scripts/eval/trec";
import { aggregateItems, aggregationMethods } from "../../scripts/judgement/aggregate";
import { DEMO_GOLD_ITEMS } from "../../scripts/demo/gold-items";

/** Import entity `truth` (gold items of a campaign) and the qrels export under each aggregation method. */
let t: TestDatabase;
let campaignId = 0;
let pooled: { proposal: string; candidate: string }[] = [];
/** A proposal and a candidate that exist but were never pooled together in the campaign. */
let unpooled = { proposal: "", candidate: "" };

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 16, candidates: 200, seed: "truth-test" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
  pooled = [
    ...(await t.db.execute<{
      proposal: string;
      candidate: string;
    }>(sql`select p.external_id as proposal, c.external_id as candidate
      from campaign_items i join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
      where i.campaign_id = ${campaignId} and i.id not in (select item_id from campaign_truth) order by i.id limit 3`)),
  ];
  [unpooled] = await t.db.execute<{
    proposal: string;
    candidate: string;
  }>(sql`select p.external_id as proposal, c.external_id as candidate
    from proposals p cross join candidates c where not exists (select 1 from campaign_items i where i.campaign_id = ${campaignId}
    and i.proposal_id = p.id and i.candidate_id = c.id) order by p.id, c.id limit 1`);
}, 120_000);
afterAll(() => t.drop());

const truthCount = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from campaign_truth`))[0].n;

describe("import entity truth", () => {
  it("imports known grades of pooled pairs, and changes nothing when imported again", async () => {
    expect(await truthCount()).toBe(DEMO_GOLD_ITEMS);
    const file = [
      "campaign,proposal,candidate,grade",
      ...pooled.map((p, i) => `${campaignId},${p.proposal},${p.candidate},${i + 2}`),
    ].join("\n");
    const first = await importFile(t.db, "cli", "truth", file, "csv", { fileName: "truth.csv" });
    expect(first).toMatchObject({ ok: true, rows: 3, counts: { added: 3, updated: 0, unchanged: 0 } });
    const again = await importFile(t.db, "cli", "truth", file, "csv");
    expect(again).toMatchObject({ ok: true, counts: { added: 0, updated: 0, unchanged: 3 } });
    const changed = await importFile(
      t.db,
      "cli",
      "truth",
      `campaign,proposal,candidate,grade\n${campaignId},${pooled[0].proposal},${pooled[0].candidate},1\n`,
      "csv",
    );
    expect(changed).toMatchObject({ ok: true, counts: { added: 0, updated: 1, unchanged: 0 } });
    const stored = await listTruth(t.db, campaignId);
    expect(
      stored.find((r) => r.proposal === pooled[0].proposal && r.candidate === pooled[0].candidate)?.grade,
    ).toBe(1);
    expect(stored.length).toBe(DEMO_GOLD_ITEMS + 3);
    const [audit] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'data.import' and target = 'truth'`,
    );
    expect(audit.n).toBe(3);
  });

  it("names every bad row (unknown campaign, proposal, candidate; an unpooled pair; a grade off the scale; a repeat) and writes nothing", async () => {
    const before = await listTruth(t.db, campaignId);
    const [p] = pooled;
    const file = [
      "campaign,proposal,candidate,grade",
      `${campaignId},${p.proposal},${p.candidate},4`,
      `99999,${p.proposal},${p.candidate},3`,
      `${campaignId},no-such-proposal,${p.candidate},3`,
      `${campaignId},${p.proposal},no-such-candidate,3`,
      `${campaignId},${unpooled.proposal},${unpooled.candidate},3`,
      `${campaignId},${pooled[1].proposal},${pooled[1].candidate},5`,
      `${campaignId},${pooled[1].proposal},${pooled[1].candidate},x`,
      `${campaignId},${p.proposal},${p.candidate},2`,
    ].join("\n");
    const result = await importFile(t.db, "cli", "truth", file, "csv");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { line: 3, message: "unknown campaign 99999" },
      { line: 4, message: "unknown proposal no-such-proposal" },
      { line: 5, message: "unknown candidate no-such-candidate" },
      {
        line: 6,
        message: `${unpooled.proposal} / ${unpooled.candidate} is not a pair of campaign ${campaignId} (only pooled pairs of a launched campaign can be gold items)`,
      },
      { line: 7, message: "grade must be from 1 to 4 (the rating scale)" },
      { line: 8, message: "grade must be a number from 1 to 4" },
      {
        line: 9,
        message: `gold item ${p.proposal} / ${p.candidate} of campaign ${campaignId} repeats line 2`,
      },
    ]);
    expect(await listTruth(t.db, campaignId)).toEqual(before);
    const missing = await importFile(t.db, "cli", "truth", "campaign,proposal,candidate\n1,a,b\n", "csv");
    expect(missing).toMatchObject({ ok: false, errors: [{ line: 1, message: "missing column grade" }] });
  });
});

describe("qrels export by aggregation method", () => {
  it("labels each pair by the chosen method, ties of the majority left out", async () => {
    const data = await loadCampaignData(t.db, campaignId);
    const ratings = data.pairs.flatMap((p) =>
      p.grades
        .filter((g) => g.grade !== null)
        .map((g) => ({ item: String(p.itemId), rater: g.expert, grade: g.grade! })),
    );
    const sizes: Record<string, number> = {};
    for (const method of aggregationMethods) {
      const file = await exportCampaign(t.db, campaignId, "qrels", { aggregate: method });
      const qrels = parseQrels(file.body);
      const expected = aggregateItems(ratings, method);
      for (const pair of data.pairs) {
        const label = expected.get(String(pair.itemId)) ?? null;
        expect(
          qrels.get(pair.proposal)?.get(pair.candidate) ?? null,
          `${method} ${pair.proposal} ${pair.candidate}`,
        ).toBe(label === null ? null : label - 1);
      }
      sizes[method] = [...qrels.values()].reduce((n, m) => n + m.size, 0);
    }
    // The demo has pairs graded 2, 3, 4 by three experts: a majority tie, left out of that file only.
    const tied = data.pairs.filter(
      (p) =>
        new Set(p.grades.map((g) => g.grade).filter((g) => g !== null)).size ===
          p.grades.filter((g) => g.grade !== null).length && p.grades.length >= 2,
    );
    expect(tied.length).toBeGreaterThan(0);
    expect(sizes.majority).toBeLessThan(sizes.median);
    expect(sizes.median).toBe(sizes.mean);
  });

  it("takes --aggregate on the CLI and refuses an unknown method", async () => {
    const ok = await runAssay(["campaign", "export", String(campaignId), "--aggregate", "dawid-skene"], {
      DATABASE_URL: t.url,
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe(
      (await exportCampaign(t.db, campaignId, "qrels", { aggregate: "dawid-skene" })).body.trim(),
    );
    const bad = await runAssay(["campaign", "export", String(campaignId), "--aggregate", "vote"], {
      DATABASE_URL: t.url,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--aggregate must be median, majority, mean, dawid-skene, not "vote".');
  }, 120_000);
});
