import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, notExists } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { campaignAssignments, campaigns, ratings, users } from "../../db/schema";
import { campaignProgress } from "../../db/campaigns/campaigns";
import { listTruth } from "../../db/campaigns/campaign-truth";
import { raterGoldAgreement } from "../judgement/gold";
import { campaignResult } from "../../db/results/campaign";
import { agreementReport } from "../judgement/agreement";
import { seedDemo } from "./seed";
import { offlineResult } from "../../db/results/offline";
import { runInProcess } from "../workers/heavy-tasks";

/**
 * The figures the docs quote about the demo, checked against a fresh demo loaded as `npm start` loads
 * it into an empty database (server.ts: `seedDemo(db)` with no options), so the text cannot drift from
 * what a new user sees (issue 22: the docs said α ≈ 0.64 where a fresh instance showed 0.364).
 */
let t: TestDatabase;
const docs = (file: string) => readFileSync(path.resolve(__dirname, "../../docs", file), "utf8");
const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };
/** A number as the docs write it ("−0.200", "+0.067", "63.3"): a real minus, a sign where given. */
const quotedNumber = (text: string) => Number(text.replace("−", "-"));
/** The value rounded to as many decimals as the docs wrote, so the quote matches to its last digit. */
const asQuoted = (value: number, quoted: string) => value.toFixed(quoted.split(".")[1]?.length ?? 0);

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db);
}, 300_000);
afterAll(() => t.drop());

describe("docs/expert-judgement.md on the demo campaign", () => {
  const text = docs("expert-judgement.md");

  it("quotes the campaign's ordinal α as the campaign page computes it, to the two decimals given", async () => {
    const quoted = /ordinal α ≈ (\d\.\d\d)/.exec(text);
    expect(quoted, "the page quotes the demo's α").not.toBeNull();
    const [campaign] = await t.db.select().from(campaigns);
    // As the campaign page does (db/results/campaign.ts): every judged grade, item × expert, ordinal.
    const { grades } = await campaignProgress(t.db, campaign.id);
    const judged = grades
      .filter((g) => g.grade !== null)
      .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
    const { alpha } = agreementReport(judged, "ordinal", { B: 100, seed: "docs" });
    expect(alpha!.toFixed(2)).toBe(quoted![1]);
  });

  it("quotes how many of expert@assay.local's assignments are left to do", async () => {
    const quoted = /(\w+) assignments of `expert@assay\.local` are left to do/.exec(text);
    expect(quoted, "the page quotes the assignments left").not.toBeNull();
    // Left to do: an assignment with no grade saved yet (the expert's list shows it as not started).
    const left = await t.db
      .select({ id: campaignAssignments.id })
      .from(campaignAssignments)
      .innerJoin(users, eq(users.id, campaignAssignments.expertId))
      .where(
        and(
          eq(users.email, "expert@assay.local"),
          notExists(t.db.select().from(ratings).where(eq(ratings.assignmentId, campaignAssignments.id))),
        ),
      );
    expect(left.length).toBe(WORDS[quoted![1]]);
  });
});

describe("docs/expert-judgement.md on the demo's gold items", () => {
  const text = docs("expert-judgement.md").replace(/\s+/g, " ");
  const N = "([+\u2212]?[\\d.]+)";

  it("quotes each expert's agreement with the gold items, mean difference and interval as computed", async () => {
    const [campaign] = await t.db.select().from(campaigns).orderBy(campaigns.id).limit(1);
    // As the campaign page does (db/campaigns/campaign-truth.ts): every judged grade against the known ones.
    const { perExpert, grades } = await campaignProgress(t.db, campaign.id);
    const truth = new Map((await listTruth(t.db, campaign.id)).map((r) => [String(r.itemId), r.grade]));
    const gold = raterGoldAgreement(
      grades
        .filter((g) => g.grade !== null)
        .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), grade: g.grade! })),
      truth,
    );
    const byName = (first: string) => {
      const expert = perExpert.find((e) => e.name.startsWith(`${first} `));
      expect(expert, `the demo has ${first}`).toBeDefined();
      return gold.get(String(expert!.expertId))!;
    };
    const esra = new RegExp(
      `Esra graded all (\\d+), exact ([\\d.]+)%, within one ([\\d.]+)%, mean difference ${N} \\[${N}, ${N}\\] grade points .*?t = ([\\d.]+), p = ([\\d.]+): flagged`,
    ).exec(text);
    expect(esra, "the page quotes Esra's gold figures").not.toBeNull();
    const e = byName("Esra");
    expect(e.gold).toBe(Number(esra![1]));
    const [exact, within, diff, lower, upper, tq, pq] = esra!.slice(2);
    expect(asQuoted(e.exact! * 100, exact)).toBe(exact);
    expect(asQuoted(e.withinOne! * 100, within)).toBe(within);
    for (const [value, quoted] of [
      [e.meanDifference!, diff],
      [e.meanDifferenceCi!.lower, lower],
      [e.meanDifferenceCi!.upper, upper],
      [e.tStatistic!, tq],
      [e.pValue!, pq],
    ] as const)
      expect(Number(asQuoted(value, quoted))).toBe(quotedNumber(quoted));
    expect(e.flagged).toBe(true);
    for (const first of ["Erin", "Emil"]) {
      const quoted = new RegExp(`${first} \\(([\\d.]+)%, ${N} \\[${N}, ${N}\\], p = ([\\d.]+)\\)`).exec(text);
      expect(quoted, `the page quotes ${first}'s gold figures`).not.toBeNull();
      const g = byName(first);
      expect(asQuoted(g.exact! * 100, quoted![1])).toBe(quoted![1]);
      for (const [value, q] of [
        [g.meanDifference!, quoted![2]],
        [g.meanDifferenceCi!.lower, quoted![3]],
        [g.meanDifferenceCi!.upper, quoted![4]],
        [g.pValue!, quoted![5]],
      ] as const)
        expect(Number(asQuoted(value, q))).toBe(quotedNumber(q));
      expect(g.flagged).toBe(false);
    }
  });
});

describe("docs/expert-judgement.md on the demo's aggregations", () => {
  const text = docs("expert-judgement.md").replace(/\s+/g, " ");

  it("quotes each aggregation's accuracy on gold with its interval, the raters each suggests, and α", async () => {
    const [campaign] = await t.db.select().from(campaigns).orderBy(campaigns.id).limit(1);
    // The campaign page's own computation, with the page's default B and seed.
    const gold = (await (await campaignResult(t.db, campaign, {}, runInProcess)).goldFigures())!;
    const from = text.indexOf("Accuracy on gold: median");
    expect(from, "the page quotes the accuracy on gold").toBeGreaterThan(0);
    const quotes = text.slice(from);
    const pct = (v: number) => (v * 100).toFixed(1);
    for (const [word, method] of [
      ["median", "median"],
      ["majority", "majority"],
      ["mean", "mean"],
      ["Dawid–Skene", "dawid-skene"],
    ] as const) {
      const quoted = new RegExp(`${word} ([\\d.]+)% \\[([\\d.]+)%, ([\\d.]+)%\\]`).exec(quotes);
      expect(quoted, `the page quotes ${word}'s accuracy`).not.toBeNull();
      const a = gold.aggregation[method]!;
      expect([a.accuracy, a.ci!.lower, a.ci!.upper].map(pct), word).toEqual(quoted!.slice(1, 4));
    }
    const suggested =
      /suggested raters per pair: Dawid–Skene (\d+), median and mean (\d+) \(majority (\d+):/.exec(quotes);
    expect(suggested, "the page quotes the raters suggested").not.toBeNull();
    const n = (m: "dawid-skene" | "median" | "mean" | "majority") => gold.enoughRaters[m]?.suggestedN;
    expect([n("dawid-skene"), n("median"), n("mean"), n("majority")]).toEqual(
      [1, 2, 2, 3].map((i) => Number(suggested![i])),
    );
    // "pulls the demo's Krippendorff's α down to 0.36": the campaign's α, to the two decimals given.
    const alpha = /Krippendorff's α down to (\d\.\d+)/.exec(quotes);
    expect(alpha, "the page quotes α once more").not.toBeNull();
    const { grades } = await campaignProgress(t.db, campaign.id);
    const judged = grades
      .filter((g) => g.grade !== null)
      .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
    expect(agreementReport(judged, "ordinal", { B: 100, seed: "docs" }).alpha!.toFixed(2)).toBe(alpha![1]);
  }, 300_000);
});

describe("docs/offline-report.md on the demo's prediction time, build and integrity", () => {
  // One line, whatever the wrapping.
  const text = docs("offline-report.md").replace(/\s+/g, " ");

  it("quotes each system's median, p95 and max latency and its build figures as the report computes them", async () => {
    // The quantiles are the lists' own (no resampling): B does not change them.
    const { result } = await offlineResult(t.db, { B: 100 }, runInProcess);
    for (const s of result!.systems) {
      const quoted = new RegExp(
        `the ${s.key} answers in a median of ([\\d.]+) ms \\(p95 ([\\d.]+) ms, max ([\\d.]+) ms\\), built in ([\\d,]+) s with ([\\d,]+) MB`,
      ).exec(text);
      expect(quoted, `the page quotes the ${s.key}'s latency`).not.toBeNull();
      const r = s.resources;
      expect([r.p50.value, r.p95.value, r.max.value].map((v) => v!.toFixed(1))).toEqual(quoted!.slice(1, 4));
      expect([r.buildSeconds, r.memoryMb]).toEqual(
        quoted!.slice(4, 6).map((n) => Number(n.replace(",", ""))),
      );
      expect(r.timed).toBe(r.lists);
    }
  }, 120_000);

  it("quotes each system's COI@10 and leaky top-10 slots as the report counts them", async () => {
    // Counts of the lists as the systems returned them: B does not change them.
    const { result } = await offlineResult(t.db, { B: 100 }, runInProcess);
    const quoted =
      /COI@10 = ([\d.]+)% \(baseline, (\d+) of ([\d,]+) slots\) and ([\d.]+)% \(challenger, (\d+) of ([\d,]+)\); (\d+) and (\d+) top-10 slots with a profile dated after the proposal \((\d+) and (\d+) proposals\)/.exec(
        text,
      );
    expect(quoted, "the page quotes COI@10 and the leaky slots").not.toBeNull();
    const at10 = (key: string) => {
      const s = result!.systems.find((x) => x.key === key)!;
      return {
        c: s.integrity!.conflicts.find((c) => c.k === 10)!,
        l: s.integrity!.leakage.find((l) => l.k === 10)!,
      };
    };
    const [b, c] = [at10("baseline"), at10("challenger")];
    const count = (n: string) => Number(n.replace(",", ""));
    expect([(b.c.share! * 100).toFixed(2), b.c.conflicted, b.c.slots]).toEqual([
      quoted![1],
      count(quoted![2]),
      count(quoted![3]),
    ]);
    expect([(c.c.share! * 100).toFixed(2), c.c.conflicted, c.c.slots]).toEqual([
      quoted![4],
      count(quoted![5]),
      count(quoted![6]),
    ]);
    expect([b.l.flagged, c.l.flagged, b.l.proposals, c.l.proposals]).toEqual(quoted!.slice(7, 11).map(count));
  }, 120_000);
});
