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
import { DEMO_EXPERIMENT, seedDemo } from "./seed";
import { offlineResult } from "../../db/results/offline";
import { runInProcess } from "../workers/heavy-tasks";
import { getExperiment } from "../../db/experiments/experiments";
import { guardrailReadings } from "../../db/results/online";
import { compositionResult } from "../../db/results/online-composition";
import { createBaselines } from "../../db/catalog/baselines";
import { clicksResult } from "../../db/results/clicks";
import { clickModelSettings } from "../../db/experiments/experiment-clicks";
import { DEFAULT_B, PAGE_B } from "../lib/defaults";
import { DEMO_INTERLEAVING } from "./interleaving";

/**
 * The figures the docs quote about the demo, checked against a fresh demo loaded as `npm start` loads
 * it into an empty database (server.ts: `seedDemo(db)` with no options), so the text cannot drift from
 * what a new user sees (issue 22: the docs said α ≈ 0.64 where a fresh instance showed 0.364).
 */
let t: TestDatabase;
const docs = (file: string) => readFileSync(path.resolve(__dirname, "../../docs", file), "utf8");
const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };
const SYSTEMS: Record<string, number> = { six: 6, seven: 7, eight: 8 };
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

/** A share as the docs quote it, in percent. */
const pct = (v: number) => v * 100;
/** A figure as the docs quote it: the value rounded to the quote's decimals reads the quoted number. */
const matches = (value: number, quoted: string) => Number(asQuoted(value, quoted)) === quotedNumber(quoted);
/** Each [value, quote] pair, named, so a failure says which figure drifted and what it is now. */
const expectQuoted = (pairs: [string, number, string][]) =>
  expect(
    pairs.filter(([, v, q]) => !matches(v, q)).map(([name, v, q]) => `${name}: ${v} (quoted ${q})`),
  ).toEqual([]);

describe("docs/online-experiments.md on the demo A/B experiment's guardrails", () => {
  const text = docs("online-experiments.md").replace(/\s+/g, " ");
  const P = "([+\u2212]?[\\d.]+)";

  it("quotes each guardrail's values, change, interval and state as the page reads them", async () => {
    const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
    const { rates } = await guardrailReadings(t.db, experiment, runInProcess);
    const quotes: [string, string, number][] = [
      [
        "minutesToFinish",
        `time to finish ${P} → ${P} minutes, ${P}% \\[${P}%, ${P}%\\], \\*\\*(\\w+)\\*\\*`,
        1,
      ],
      [
        "emptyCommitteeShare",
        `empty committees ${P}% → ${P}%, ${P}% \\[${P}%, ${P}%\\], \\*\\*(\\w+)\\*\\*`,
        100,
      ],
      [
        "profileOpensPerAdoption",
        `profile opens per adoption ${P} → ${P}, ${P}% \\[${P}%, ${P}%\\], \\*\\*(\\w+)\\*\\*`,
        1,
      ],
      ["coiShare", `COI share ${P}% → ${P}%, ${P}% \\[${P}%, ${P}%\\], \\*\\*([\\w ]+)\\*\\*`, 100],
    ];
    for (const [metric, pattern, scale] of quotes) {
      const quoted = new RegExp(pattern).exec(text);
      expect(quoted, `the page quotes ${metric}`).not.toBeNull();
      const g = rates.find((r) => r.metric === metric)!;
      expect(g.state, metric).toBe(quoted![6]);
      expect("ci" in g, `${metric} has an interval`).toBe(true);
      if (!("ci" in g)) continue;
      expectQuoted([
        [`${metric} control`, g.control! * scale, quoted![1]],
        [`${metric} treatment`, g.treatment! * scale, quoted![2]],
        [`${metric} change`, g.effect * 100, quoted![3]],
        [`${metric} lower`, g.ci[0] * 100, quoted![4]],
        [`${metric} upper`, g.ci[1] * 100, quoted![5]],
      ]);
    }
  }, 300_000);
});

describe("docs/fairness.md on the demo", () => {
  const text = docs("fairness.md").replace(/\s+/g, " ");
  const P = "([+\u2212]?[\\d.]+)";

  it("quotes the challenger's share of women in its top 10 and the pool, as the offline page computes them", async () => {
    const { fairness } = await offlineResult(t.db, { B: PAGE_B }, runInProcess, { fairness: {} });
    const women = fairness!.report.challenger.attributes.gender.groups.f;
    const page = new RegExp(
      `the challenger shows women in ${P}% \\[${P}%, ${P}%\\] of its top 10 against a pool share of ${P}%`,
    ).exec(text);
    expect(page, "the page quotes the challenger's share at page B").not.toBeNull();
    const share = women.figures["share@10"];
    expectQuoted([
      ["share@10", pct(share.value!), page![1]],
      ["share@10 lower", pct(share.ci!.lower), page![2]],
      ["share@10 upper", pct(share.ci!.upper), page![3]],
      ["pool share", pct(women.poolShare), page![4]],
    ]);
    const cli = new RegExp(
      `challenger shows women in ${P} \\[${P}, ${P}\\] of its top 10 \\(committees ${P}, pool ${P}\\), yet their exposure per committee member is not told apart from the rest's \\(${P} \\[${P}, ${P}\\]`,
    ).exec(text);
    expect(cli, "the page quotes the challenger's exposure per merit").not.toBeNull();
    const ratio = women.figures.exposurePerMeritRatio;
    expectQuoted([
      ["share@10", share.value!, cli![1]],
      ["share@10 lower", share.ci!.lower, cli![2]],
      ["share@10 upper", share.ci!.upper, cli![3]],
      ["committees", women.figures.committees.value!, cli![4]],
      ["pool", women.poolShare, cli![5]],
      ["exposurePerMeritRatio", ratio.value!, cli![6]],
      ["exposurePerMeritRatio lower", ratio.ci!.lower, cli![7]],
      ["exposurePerMeritRatio upper", ratio.ci!.upper, cli![8]],
    ]);
  }, 300_000);

  it("quotes the share of women among each experiment's adoptions, by team and by arm", async () => {
    const read = async (key: string) => {
      const experiment = (await getExperiment(t.db, key))!;
      return (await compositionResult(t.db, experiment, { B: PAGE_B, seed: experiment.seed }, runInProcess))!;
    };
    const interleaved = (await read(DEMO_INTERLEAVING)).attributes.gender.groups.f;
    const teams = new RegExp(
      `challenger's team's adoptions are ${P}% \\[${P}%, ${P}%\\] women against the baseline's ${P}% \\[${P}%, ${P}%\\], ${P} pp \\[${P}, ${P}\\], p = ([\\d.]+)`,
    ).exec(text);
    expect(teams, "the page quotes the interleaved composition").not.toBeNull();
    const [c, b, d] = [
      interleaved.arms!.challenger,
      interleaved.arms!.baseline,
      interleaved.differences!.challenger,
    ];
    expectQuoted([
      ["challenger", pct(c.value!), teams![1]],
      ["challenger lower", pct(c.ci!.lower), teams![2]],
      ["challenger upper", pct(c.ci!.upper), teams![3]],
      ["baseline", pct(b.value!), teams![4]],
      ["baseline lower", pct(b.ci!.lower), teams![5]],
      ["baseline upper", pct(b.ci!.upper), teams![6]],
      ["difference", pct(d.value!), teams![7]],
      ["difference lower", pct(d.ci!.lower), teams![8]],
      ["difference upper", pct(d.ci!.upper), teams![9]],
      ["p", d.pValue!, teams![10]],
    ]);
    const ab = (await read(DEMO_EXPERIMENT)).attributes.gender.groups.f;
    const arms = new RegExp(
      `arm B's adoptions are ${P}% women against A's ${P}%, ${P} pp \\[${P}, ${P}\\], p < 0\\.001`,
    ).exec(text);
    expect(arms, "the page quotes the A/B composition").not.toBeNull();
    expectQuoted([
      ["B", pct(ab.arms!.B.value!), arms![1]],
      ["A", pct(ab.arms!.A.value!), arms![2]],
      ["difference", pct(ab.differences!.B.value!), arms![3]],
      ["difference lower", pct(ab.differences!.B.ci!.lower), arms![4]],
      ["difference upper", pct(ab.differences!.B.ci!.upper), arms![5]],
    ]);
    expect(ab.differences!.B.pValue!).toBeLessThan(0.001);
  }, 300_000);

  it("quotes the share of women among graded pairs and among pairs graded 3–4, as the campaign page computes them", async () => {
    const [campaign] = await t.db.select().from(campaigns).orderBy(campaigns.id).limit(1);
    const page = await campaignResult(t.db, campaign, {}, runInProcess);
    const women = page.gradesByGroup!.attributes.gender.groups.f;
    const quoted = new RegExp(
      `women are ${P}% \\[${P}%, ${P}%\\] of graded pairs and ${P}% \\[${P}%, ${P}%\\] of pairs graded 3–4 \\(difference ${P} pp \\[${P}, ${P}\\]\\)`,
    ).exec(text);
    expect(quoted, "the page quotes the grades by group").not.toBeNull();
    const [g, h, d] = [women.graded!, women.high!, women.difference!];
    expectQuoted([
      ["graded", pct(g.value!), quoted![1]],
      ["graded lower", pct(g.ci!.lower), quoted![2]],
      ["graded upper", pct(g.ci!.upper), quoted![3]],
      ["high", pct(h.value!), quoted![4]],
      ["high lower", pct(h.ci!.lower), quoted![5]],
      ["high upper", pct(h.ci!.upper), quoted![6]],
      ["difference", pct(d.value!), quoted![7]],
      ["difference lower", pct(d.ci!.lower), quoted![8]],
      ["difference upper", pct(d.ci!.upper), quoted![9]],
    ]);
  }, 300_000);
});

describe("docs/click-models.md on the demo experiment's click models", () => {
  const text = docs("click-models.md").replace(/\s+/g, " ");
  const P = "([+\u2212]?[\\d.]+)";

  it("quotes PBM's and CM's fit and both CTRs per arm with the page's intervals", async () => {
    const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
    const fit = (
      await (
        await clicksResult(t.db, experiment, clickModelSettings(experiment), runInProcess)
      ).fit
    ).fit!;
    const model = (name: string) => fit.models.find((m) => m.name === name)!;
    const quoted = new RegExp(
      `PBM's log-likelihood is ${P} \\[${P}, ${P}\\] and its perplexity ${P} \\[${P}, ${P}\\]; CM's log-likelihood ${P} \\[${P}, ${P}\\]`,
    ).exec(text);
    expect(quoted, "the page quotes the fit with its intervals").not.toBeNull();
    const [pbm, cm] = [model("PBM"), model("CM")];
    expectQuoted([
      ["PBM log-likelihood", pbm.logLikelihood, quoted![1]],
      ["PBM lower", pbm.logLikelihoodCi!.lower, quoted![2]],
      ["PBM upper", pbm.logLikelihoodCi!.upper, quoted![3]],
      ["PBM perplexity", pbm.perplexity, quoted![4]],
      ["PBM perplexity lower", pbm.perplexityCi!.lower, quoted![5]],
      ["PBM perplexity upper", pbm.perplexityCi!.upper, quoted![6]],
      ["CM log-likelihood", cm.logLikelihood, quoted![7]],
      ["CM lower", cm.logLikelihoodCi!.lower, quoted![8]],
      ["CM upper", cm.logLikelihoodCi!.upper, quoted![9]],
    ]);
    for (const arm of fit.arms) {
      const ctr = new RegExp(`${arm.arm} ${P}% \\[${P}%, ${P}%\\] → ${P}% \\[${P}%, ${P}%\\]`).exec(
        text.slice(text.indexOf("with the page's intervals")),
      );
      expect(ctr, `the page quotes arm ${arm.arm}'s CTRs`).not.toBeNull();
      expectQuoted([
        [`${arm.arm} CTR`, pct(arm.ctr!), ctr![1]],
        [`${arm.arm} CTR lower`, pct(arm.ctrCi!.lower), ctr![2]],
        [`${arm.arm} CTR upper`, pct(arm.ctrCi!.upper), ctr![3]],
        [`${arm.arm} corrected`, pct(arm.correctedCtr!), ctr![4]],
        [`${arm.arm} corrected lower`, pct(arm.correctedCtrCi!.lower), ctr![5]],
        [`${arm.arm} corrected upper`, pct(arm.correctedCtrCi!.upper), ctr![6]],
      ]);
    }
  }, 300_000);
});

// Last: it adds the four baselines to the demo's systems, which the figures above do not have.
describe("docs/offline-report.md on what the demo's ground truth is worth", () => {
  const text = docs("offline-report.md").replace(/\s+/g, " ");
  const P = "([+\u2212]?[\\d.]+)";

  it("quotes the grades of members and others, their difference and the golds' agreement as `assay offline` computes them", async () => {
    // `assay offline` on the demo: B = 2,000, the seed "assay", the newest campaign's grades.
    const before = (await offlineResult(t.db, { B: DEFAULT_B }, runInProcess)).result!.groundTruth!;
    const grades = new RegExp(
      `campaign 1: (\\d+) proposals, 3 experts, B = 2,000\\) the (\\d+) graded member pairs are all graded 4 .*? against a mean of ${P} for the ([\\d,]+) others \\(${P}% of them graded 4\\): a difference of ${P} \\[${P}, ${P}\\], Mann–Whitney p < 0\\.001`,
    ).exec(text);
    expect(grades, "the page quotes the grades of members and others").not.toBeNull();
    const { members, nonMembers, difference, test } = before.grades;
    expect([before.proposals, members.pairs, members.counts[3], nonMembers.pairs]).toEqual(
      [grades![1], grades![2], grades![2], grades![4]].map((n) => Number(n.replace(",", ""))),
    );
    expectQuoted([
      ["others' mean", nonMembers.mean!, grades![3]],
      ["others graded 4", pct(before.grades.nonMembersGradedFour!), grades![5]],
      ["difference", difference.value!, grades![6]],
      ["difference lower", difference.ci!.lower, grades![7]],
      ["difference upper", difference.ci!.upper, grades![8]],
    ]);
    expect(test!.pValue).toBeLessThan(0.001);

    await createBaselines(t.db);
    const after = (await offlineResult(t.db, { B: DEFAULT_B }, runInProcess)).result!;
    const tau = new RegExp(
      `With the four baselines added \\(\`assay baselines\`, (\\w+) systems with the multileaving demo's hybrid\\) τ-b is ${P} \\[${P}, ${P}\\] for Success@10, ${P} \\[${P}, ${P}\\] for RR@10, ${P} \\[${P}, ${P}\\] for nDCG@10 and ${P} \\[${P}, ${P}\\] for AP`,
    ).exec(text);
    expect(tau, "the page quotes τ-b").not.toBeNull();
    const agreement = (m: string) => after.groundTruth!.agreement.find((a) => a.measure === m)!;
    const pairs: [string, number, string][] = [["systems", after.systems.length, String(SYSTEMS[tau![1]])]];
    for (const [i, measure] of [
      [2, "Success@10"],
      [5, "RR@10"],
      [8, "nDCG@10"],
      [11, "AP"],
    ] as const) {
      const a = agreement(measure);
      pairs.push([measure, a.tau!, tau![i]], [`${measure} lower`, a.ci!.lower, tau![i + 1]]);
      pairs.push([`${measure} upper`, a.ci!.upper, tau![i + 2]]);
    }
    const ndcg = new RegExp(
      `subject-match beats the challenger on committee nDCG@10 \\(${P} against ${P}\\) and loses to it on expert nDCG@10 \\(${P} against ${P}\\)`,
    ).exec(text);
    expect(ndcg, "the page quotes subject-match against the challenger").not.toBeNull();
    const nd = (key: string) =>
      after.groundTruth!.systems.find((s) => s.key.includes(key))!.measures["nDCG@10"];
    expectQuoted([
      ...pairs,
      ["subject-match committee", nd("subject").committee.value!, ndcg![1]],
      ["challenger committee", nd("challenger").committee.value!, ndcg![2]],
      ["subject-match experts", nd("subject").experts.value!, ndcg![3]],
      ["challenger experts", nd("challenger").experts.value!, ndcg![4]],
    ]);
  }, 600_000);
});
