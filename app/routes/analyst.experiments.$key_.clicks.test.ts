import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { runAssay } from "../../test/run-cli";
import { createUser } from "../../db/accounts/users";
import { DEMO_EXPERIMENT, seedDemo } from "../../scripts/demo/seed";
import { createExperiment, getExperiment } from "../../db/experiments/experiments";
import { ingestEvents } from "../../db/experiments/events";
import { forEachClickSession } from "../../db/experiments/click-sessions";
import { loadOfflineInput } from "../../db/catalog/offline-input";
import { compareSnapshots, createSnapshot, snapshotCsv, SnapshotError } from "../../db/snapshots/snapshots";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { createRng } from "../../scripts/lib/random";
import { offlineReport } from "../../scripts/offline/report";
import { modelNames } from "../../scripts/clicks/models";
import type { RawSession } from "../../scripts/clicks/log";
import type { ExperimentClicksResult } from "../../scripts/clicks/experiment-report";
import { ClicksDashboard } from "../components/dashboards/clicks-dashboard";
import { action, loader } from "./analyst.experiments.$key_.clicks";
import { loadExperimentClicksInput } from "../../db/experiments/experiment-clicks";
import { runHeavyTask } from "../../scripts/workers/heavy-tasks";
import { progressCells, readProgress } from "../../scripts/lib/progress";
import { runInWorkerPool } from "../results/worker-pool.server";
import { Computing } from "../components/computed-at";
import { CLICK_FIT_UNIT } from "../components/dashboards/clicks/fit";
import { clickModelFit } from "../results/click-fits.server";
import { loader as snapshotLoader } from "./analyst.snapshots.$id";
import { armCtrIntervals } from "../../scripts/clicks/intervals";
import { PAGE_B } from "../../scripts/lib/defaults";
import { formatCi, formatNumber } from "../utils/format";

/**
 * The click-model page of an experiment: its loader on the demo experiment's sessions, PBM's
 * examination curve recovering a known position bias from a simulated log stored as events (the path
 * the page reads), the `clicks` snapshot and its page, the empty state and the role checks.
 */

/** The simulated examination: rank 1 always looked at, then falling to 20% at rank 10. */
const GAMMA = [1, 0.85, 0.72, 0.6, 0.5, 0.42, 0.35, 0.29, 0.24, 0.2];
const SIM_SESSIONS = 6000;

let t: TestDatabase;
const cookies: Record<string, string> = {};
/** Mean true attractiveness of the results shown in each arm's simulated sessions (what corrected CTR estimates). */
const simAttractiveness: Record<string, { sum: number; shown: number }> = {
  A: { sum: 0, shown: 0 },
  B: { sum: 0, shown: 0 },
};

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 20, candidates: 300, listLength: 20, seed: "clicksapp" });
  for (const role of ["analyst", "admin", "expert", "convener"] as const) {
    const user = await createUser(t.db, "cli", {
      email: `${role}@clicks.test`,
      name: role,
      roles: [role],
      password: "long-enough-1",
    });
    cookies[role] = await createSessionCookie(t.db, user.id);
  }
  const arms = [
    { key: "A", system: "baseline", weight: 0.5 },
    { key: "B", system: "challenger", weight: 0.5 },
  ];
  for (const key of ["pbm-sim", "few"]) {
    await createExperiment(t.db, "cli", experimentSchema.parse({ key, name: key, arms, control: "A" }));
  }
  await ingestSimulatedPbmLog();
  // "few": 30 sessions, too few to fit.
  const few = (await getExperiment(t.db, "few"))!;
  const events = Array.from({ length: 30 }, (_, s) => ({
    eventId: `few-${s}`,
    type: "impression",
    at: "2026-11-02T10:00:00Z",
    experiment: "few",
    arm: "A",
    unitId: `u${s}`,
    sessionId: "s",
    proposalId: "q0",
    items: ["c1", "c2"],
  }));
  expect((await ingestEvents(t.db, few, events, { checkArm: false })).rejected).toEqual([]);
}, 120_000);
afterAll(() => t.drop());

/**
 * Sessions drawn from a PBM with known examination `GAMMA`: 40 proposals of 14 candidates each with
 * attractiveness uniform in [0.1, 0.8], each session showing 10 of them in a random order (so every
 * candidate is seen at many ranks, which is what lets PBM tell attractiveness from position), stored as
 * impression and click events through the ingestion the event API uses.
 */
async function ingestSimulatedPbmLog() {
  const experiment = (await getExperiment(t.db, "pbm-sim"))!;
  const rng = createRng("clicksapp:pbm-sim");
  const Q = 40;
  const D = 14;
  const attractiveness = Array.from({ length: Q * D }, () => 0.1 + 0.7 * rng.next());
  const events: Record<string, unknown>[] = [];
  for (let s = 0; s < SIM_SESSIONS; s++) {
    const q = rng.int(Q);
    const arm = rng.next() < 0.5 ? "A" : "B";
    const docs = Array.from({ length: D }, (_, i) => i);
    for (let i = D - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [docs[i], docs[j]] = [docs[j], docs[i]];
    }
    const shown = docs.slice(0, 10);
    const base = {
      experiment: "pbm-sim",
      arm,
      unitId: `u${s % 300}`,
      sessionId: `s${s}`,
      proposalId: `q${q}`,
    };
    const at = (k: number) =>
      new Date(Date.parse("2026-11-01T08:00:00Z") + s * 60_000 + k * 1000).toISOString();
    events.push({
      ...base,
      eventId: `sim-${s}-i`,
      type: "impression",
      at: at(0),
      items: shown.map((d) => `q${q}d${d}`),
    });
    shown.forEach((d, r) => {
      const a = attractiveness[q * D + d];
      simAttractiveness[arm].sum += a;
      simAttractiveness[arm].shown++;
      if (rng.next() < a * GAMMA[r])
        events.push({
          ...base,
          eventId: `sim-${s}-c${r}`,
          type: "click",
          at: at(r + 1),
          candidateId: `q${q}d${d}`,
        });
    });
  }
  for (let i = 0; i < events.length; i += 5000) {
    const result = await ingestEvents(t.db, experiment, events.slice(i, i + 5000), { checkArm: false });
    expect(result.rejected).toEqual([]);
  }
}

const context = { cspNonce: "", ip: "127.0.0.1" };
type PageData = {
  experiment: { key: string };
  settings: { seed: string };
  clicks: ExperimentClicksResult | null;
  refitting: string | null;
};

/**
 * The page's loader as the browser calls it, asked again while it answers "pending" or shows an older fit
 * while refitting (as the page does): each call waits on the same fit, never starting another. Returns the
 * first answer too.
 */
async function page(key: string, role = "analyst") {
  const request = () =>
    new Request(`http://localhost/analyst/experiments/${key}/clicks`, { headers: { Cookie: cookies[role] } });
  const ask = async () =>
    (await (await loader({ request: request(), params: { key }, context })).json()) as PageData;
  const first = await ask();
  let data = first;
  while (!data.clicks || data.refitting) data = await ask();
  return { ...data, clicks: data.clicks, first };
}

/** The figures of a result without its training times (which no two runs share). */
const figures = (r: ExperimentClicksResult) => ({
  ...r,
  fit: r.fit && { ...r.fit, models: r.fit.models.map((m) => ({ ...m, trainSeconds: 0 })) },
});

it("recovers a known position bias from a simulated log: PBM's curve within 0.07 of the truth at every rank", async () => {
  const { clicks } = await page("pbm-sim");
  const fit = clicks.fit!;
  expect(clicks.sessions).toBe(SIM_SESSIONS);
  // Tolerance: over 30 seeds of this simulation (6,000 sessions, 4,500 fitted) the estimate's spread
  // per rank is at most 0.018 (sd) and its bias at most 0.012 (EM's start counts pull towards 0.5);
  // 0.07 is that bias plus 3.2 sd. No position bias at all would miss by 0.8 at rank 10, and the
  // demo's exp(−(r−1)/12) shape by 0.27.
  fit.examination.forEach((e, r) =>
    expect(Math.abs(e.relative - GAMMA[r]), `rank ${r + 1}: ${e.relative}`).toBeLessThan(0.07),
  );
  // The correction undoes the bias: the corrected CTR estimates the mean attractiveness of what was
  // shown (≈ 0.45), where the raw CTR (≈ 0.23) is that times the mean examination.
  for (const arm of fit.arms) {
    const truth = simAttractiveness[arm.arm].sum / simAttractiveness[arm.arm].shown;
    expect(Math.abs(arm.correctedCtr! - truth) / truth, arm.arm).toBeLessThan(0.05);
    expect(arm.ctr!).toBeLessThan(0.6 * truth);
  }
  // The curve's intervals (PBM refitted per resample of conveners) hold the truth at nearly every rank
  // and are narrow enough to tell the ranks apart.
  expect(fit.examination[0].relativeCi).toEqual({ lower: 1, upper: 1 });
  const covered = fit.examination.filter(
    (e, r) => e.relativeCi!.lower <= GAMMA[r] && GAMMA[r] <= e.relativeCi!.upper,
  );
  expect(covered.length).toBeGreaterThanOrEqual(9);
  for (const e of fit.examination) expect(e.relativeCi!.upper - e.relativeCi!.lower).toBeLessThan(0.15);
  // B's corrected CTR minus A's: its interval holds the true difference in mean attractiveness shown.
  const truth = (arm: string) => simAttractiveness[arm].sum / simAttractiveness[arm].shown;
  const difference = fit.arms.find((a) => a.arm === "B")!.difference!;
  expect(difference.control).toBe("A");
  expect(difference.correctedCtrCi!.lower).toBeLessThanOrEqual(truth("B") - truth("A"));
  expect(difference.correctedCtrCi!.upper).toBeGreaterThanOrEqual(truth("B") - truth("A"));
});

it("fits the twelve models (TCM with tasks) on the demo experiment's sessions, with the split, labels, CTRs and display depths it says", async () => {
  const { clicks } = await page(DEMO_EXPERIMENT);
  const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  // The sessions are the export's (assay clicks export), each with its arm.
  const exported: { page: RawSession; arm: string; unit: string }[] = [];
  await forEachClickSession(
    t.sql,
    experiment.id,
    10,
    (p, arm, unit) => void exported.push({ page: p, arm, unit }),
  );
  expect(clicks.sessions).toBe(exported.length);
  // TCM's tasks: a convener's list views of one proposal; some conveners come back to a proposal.
  const tasks = new Set(exported.map((e) => e.page.task));
  expect(tasks.size).toBeLessThan(exported.length);
  expect(exported.every((e) => e.page.task === `${e.page.id.split("/")[0]}/${e.page.query}`)).toBe(true);
  const fit = clicks.fit!;
  expect(fit.train + fit.test + fit.dropped).toBe(exported.length);
  expect(fit.test / exported.length).toBeGreaterThan(0.2);
  expect(fit.models.map((m) => m.name)).toEqual([...modelNames]);
  for (const m of fit.models) {
    expect(m.perplexity).toBeGreaterThan(1);
    expect(m.perplexityByRank).toHaveLength(10);
    expect(m.logLikelihood).toBeLessThan(0);
    // Each figure inside its 95% interval (a bootstrap over the test sessions' conveners).
    expect(m.logLikelihoodCi!.lower).toBeLessThan(m.logLikelihood);
    expect(m.logLikelihoodCi!.upper).toBeGreaterThan(m.logLikelihood);
    expect(m.perplexityCi!.lower).toBeLessThan(m.perplexity);
    expect(m.perplexityCi!.upper).toBeGreaterThan(m.perplexity);
    expect(m.perplexityByRankCi).toHaveLength(10);
  }
  expect(clicks.settings.B).toBe(PAGE_B);
  // The demo's proposals all have historical committees: relevance is measured against them.
  expect(fit.labels).toEqual({
    source: "historical committees",
    proposals: new Set(exported.map((e) => e.page.query)).size,
  });
  expect(fit.models.find((m) => m.name === "PBM")!.relevanceAuc).toBeGreaterThan(0.6);
  // AUC (over conveners), CTR@1 RMSE and nDCG@5 (over proposals) each inside its interval.
  const pbmFit = fit.models.find((m) => m.name === "PBM")!;
  for (const m of ["relevanceAuc", "ctrPredictionRmse", "rankingNdcg5"] as const) {
    // ≤: on this small demo PBM separates the committees perfectly (AUC 1 in every resample).
    expect(pbmFit[`${m}Ci`]!.lower, m).toBeLessThanOrEqual(pbmFit[m]!);
    expect(pbmFit[`${m}Ci`]!.upper, m).toBeGreaterThanOrEqual(pbmFit[m]!);
  }
  expect(fit.models.find((m) => m.name === "CM")!.relevanceAuc).not.toBeNull();
  // Raw and corrected CTR per arm, recomputed here from the exported sessions and the curve shown.
  for (const arm of fit.arms) {
    const mine = exported.filter((e) => e.arm === arm.arm);
    const shown = mine.reduce((n, e) => n + e.page.results.length, 0);
    const clicked = mine.flatMap((e) => e.page.clicks.flatMap((c, r) => (c ? [r] : [])));
    expect(arm.sessions).toBe(mine.length);
    expect(arm.ctr).toBeCloseTo(clicked.length / shown, 12);
    expect(arm.correctedCtr).toBeCloseTo(
      clicked.reduce((s, r) => s + 1 / fit.examination[r].relative, 0) / shown,
      12,
    );
    expect(arm.correctedCtr!).toBeGreaterThan(arm.ctr!);
    // The intervals resample the arm's conveners: the same from the exported sessions' sums per convener.
    const perUnit = new Map<string, number[]>();
    for (const e of mine) {
      const sums = perUnit.get(e.unit) ?? perUnit.set(e.unit, [0, 0, 0]).get(e.unit)!;
      sums[0] += e.page.results.length;
      e.page.clicks.forEach((c, r) => {
        sums[1] += c;
        sums[2] += c / fit.examination[r].relative;
      });
    }
    expect(perUnit.size).toBeLessThan(mine.length);
    const column = (j: number) => Float64Array.from(perUnit.values(), (u) => u[j]);
    const mineCi = armCtrIntervals(
      { shown: column(0), clicks: column(1), weighted: column(2) },
      { B: PAGE_B, seed: experiment.seed, arm: arm.arm },
    );
    expect(arm.ctrCi).toEqual(mineCi.ctr);
    expect(arm.correctedCtrCi!.lower).toBeCloseTo(mineCi.correctedCtr!.lower, 12);
    expect(arm.correctedCtrCi!.upper).toBeCloseTo(mineCi.correctedCtr!.upper, 12);
    expect(arm.ctrCi!.lower).toBeLessThan(arm.ctr!);
    expect(arm.ctrCi!.upper).toBeGreaterThan(arm.ctr!);
  }
  // The display depth is the offline report's hint for the arm's system.
  const offline = offlineReport(await loadOfflineInput(t.db), { B: 200 });
  // Its K_hit p90 with the offline page's interval: the same resamples at the page's B and seed.
  const offlinePage = offlineReport(await loadOfflineInput(t.db), { B: PAGE_B });
  for (const d of fit.displayDepth) {
    expect(d.depth).not.toBeNull();
    expect(d.depth).toBe(offline.systems.find((s) => s.key === d.system)!.hints.displayDepth);
    expect(d.kHitP90).toEqual(offlinePage.systems.find((s) => s.key === d.system)!.kHit.p90);
    expect(d.depth).toBe(Math.ceil(d.kHitP90!.value!));
  }
  // The examination curve starts at rank 1 = 100% and the demo's conveners look less far down.
  expect(fit.examination[0].relative).toBe(1);
  expect(fit.examination[9].relative).toBeLessThan(0.9);
});

it("shows the empty state, and refuses a snapshot, when an experiment has too few sessions", async () => {
  const { clicks } = await page("few");
  expect(clicks).toMatchObject({ sessions: 30, fit: null });
  const html = renderToStaticMarkup(createElement(ClicksDashboard, { result: clicks }));
  expect(html).toContain(
    "Too few convener sessions to fit click models: 30 so far; the models need at least 100",
  );
  await expect(createSnapshot(t.db, "cli", { kind: "clicks", experiment: "few" })).rejects.toThrow(
    "Experiment few has too few convener sessions (30) to fit click models.",
  );
});

it("freezes the click models once, and the snapshot's page shows the live page's figures", async () => {
  const live = (await page(DEMO_EXPERIMENT)).clicks;
  const frozen = await createSnapshot(t.db, "cli", { kind: "clicks", experiment: DEMO_EXPERIMENT });
  expect(frozen).toMatchObject({
    kind: "clicks",
    created: true,
    parameters: {
      kind: "clicks",
      experiment: DEMO_EXPERIMENT,
      seed: live.settings.seed,
      testShare: 0.25,
      iterations: 50,
      maxRank: 10,
      B: PAGE_B,
    },
  });
  const again = await createSnapshot(t.db, "cli", { kind: "clicks", experiment: DEMO_EXPERIMENT });
  expect(again).toMatchObject({ id: frozen.id, created: false });
  // The CLI freezes the same (the experiment's seed unless --seed), so it finds this one too.
  const cli = await runAssay(["snapshot", "create", "--kind", "clicks", "--experiment", DEMO_EXPERIMENT], {
    DATABASE_URL: t.url,
  });
  expect(cli.stdout).toContain(
    `Snapshot ${frozen.id} (clicks) already frozen with these parameters on this data`,
  );

  const request = new Request(`http://localhost/analyst/snapshots/${frozen.id}`, {
    headers: { Cookie: cookies.analyst },
  });
  const snapshotPage = await (
    await snapshotLoader({ request, params: { id: String(frozen.id) }, context })
  ).json();
  expect(snapshotPage.snapshot.kind).toBe("clicks");
  const stored = snapshotPage.result as ExperimentClicksResult;
  expect(figures(stored)).toEqual(figures(live));
  // Drawn by the same dashboard, the two pages read the same (training times aside).
  const draw = (r: ExperimentClicksResult) =>
    renderToStaticMarkup(createElement(ClicksDashboard, { result: figures(r) }));
  expect(draw(stored)).toEqual(draw(live));
  expect(draw(stored)).toContain("Relevance AUC");

  // The CSV download: a row per model measure, per rank, per arm.
  const csv = snapshotCsv(frozen).split("\r\n");
  const pbm = live.fit!.models.find((m) => m.name === "PBM")!;
  const armB = live.fit!.arms.find((a) => a.arm === "B")!;
  expect(csv).toContain(
    `PBM,model,perplexity,${pbm.perplexity},${pbm.perplexityCi!.lower},${pbm.perplexityCi!.upper}`,
  );
  const rank10 = live.fit!.examination[9];
  expect(csv).toContain(
    `PBM,rank 10,examination,${rank10.relative},${rank10.relativeCi!.lower},${rank10.relativeCi!.upper}`,
  );
  expect(csv).toContain(
    `B,vs A,ctrTop10 difference,${armB.difference!.ctr},${armB.difference!.ctrCi!.lower},${armB.difference!.ctrCi!.upper}`,
  );
  expect(csv).toContain(
    `B,arm,correctedCtr,${armB.correctedCtr},${armB.correctedCtrCi!.lower},${armB.correctedCtrCi!.upper}`,
  );
  // The page says how the intervals were made, and shows them under the figures.
  expect(draw(live)).toContain("bootstrap over conveners (log-likelihood, perplexity, relevance AUC, CTRs)");
  expect(draw(live)).toContain(`B = 1,000, seed “${live.settings.seed}”`);
  expect(draw(live)).toContain(formatCi(pbm.logLikelihoodCi, formatNumber));
  // Compare takes two of one kind only, and says so with the right article.
  const online = await createSnapshot(t.db, "cli", { kind: "online", experiment: DEMO_EXPERIMENT, B: 100 });
  expect(() => compareSnapshots(frozen, online)).toThrow(
    new SnapshotError("A clicks snapshot cannot be compared with an online one; pick two of the same kind."),
  );
  expect(
    compareSnapshots(frozen, again).figures.find(
      (r) => r.system === "PBM" && r.measure === "perplexity" && r.section === "model",
    )?.a?.value,
  ).toBe(live.fit!.models.find((m) => m.name === "PBM")!.perplexity);
});

it("answers pending while a fit runs, with the models fitted so far, and every later request gets that same fit", async () => {
  const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  const settings = { seed: "pending-test", testShare: 0.25, iterations: 50, maxRank: 10, B: 100 };
  const pending = await clickModelFit(experiment, settings, { waitMs: 0 });
  expect(pending.result).toBeNull();
  expect(pending.computedAt).toBeNull();
  // Whatever the worker reported by now counts fits of the twelve models and PBM's B refits, never more.
  let fit = pending;
  while (!fit.result) {
    if (fit.progress) expect(fit.progress.done).toBeLessThanOrEqual(fit.progress.total);
    if (fit.progress) expect(fit.progress.total).toBe(modelNames.length + settings.B);
    fit = await clickModelFit(experiment, settings, { waitMs: 200 });
  }
  expect(fit.result.settings.seed).toBe("pending-test");
  expect(fit.progress).toBeNull();
  expect(Date.parse(fit.computedAt!)).toBeGreaterThan(0);
  const again = await clickModelFit(experiment, settings, { waitMs: 0 });
  expect(again.result).toBe(fit.result);
  expect(again.computedAt).toBe(fit.computedAt);
});

it("reports its progress from the worker thread: one step per model fitted, then per refit of PBM's curve", async () => {
  const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  const settings = { seed: "progress-test", testShare: 0.25, iterations: 20, maxRank: 10, B: 100 };
  const input = await loadExperimentClicksInput(t.db, experiment, settings);
  const steps: [number, number][] = [];
  runHeavyTask("experimentClicks", input, (done, total) => steps.push([done, total]));
  const fits = modelNames.length + settings.B;
  expect(steps).toEqual(Array.from({ length: fits }, (_, i) => [i + 1, fits]));
  // Across threads: the pool's worker writes the shared counters this thread reads.
  const cells = progressCells();
  expect(readProgress(cells)).toBeNull();
  await runInWorkerPool("experimentClicks", input, cells);
  expect(readProgress(cells)).toEqual({ done: fits, total: fits });
  // What the page shows meanwhile, in words and as a bar.
  const html = renderToStaticMarkup(
    createElement(Computing, {
      what: "the click models",
      progress: { done: 5, total: 1012 },
      unit: CLICK_FIT_UNIT,
    }),
  );
  expect(html).toContain(
    "Computing the click models… (5 of 1,012 fits: the twelve models, then PBM refitted per resample)",
  );
  expect(html).toMatch(/<progress[^>]*max="1012"[^>]*value="5"/);
});

describe("Recompute", () => {
  const post = (role: string, fields: Record<string, string>) =>
    action({
      request: new Request(`http://localhost/analyst/experiments/${DEMO_EXPERIMENT}/clicks`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: cookies[role], "Content-Type": "application/x-www-form-urlencoded" },
      }),
      params: { key: DEMO_EXPERIMENT },
      context,
    }) as Promise<Response>;
  const shown = async () => {
    const data = await page(DEMO_EXPERIMENT);
    return { ...data, computedAt: (data as unknown as { computedAt: string }).computedAt };
  };

  it("fits anew for an analyst: a later computed-at, the same figures; the kept fit is served until then", async () => {
    const before = await shown();
    expect((await shown()).computedAt).toBe(before.computedAt);
    const response = await post("analyst", { intent: "recompute" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      intent: "recompute",
      done: "Recomputed from the current data.",
    });
    const after = await shown();
    expect(Date.parse(after.computedAt)).toBeGreaterThan(Date.parse(before.computedAt));
    expect(figures(after.clicks)).toEqual(figures(before.clicks));
  });

  it("is for those who read the page (analysts, admins): others get 403, a bad intent a 400, nothing is dropped", async () => {
    const before = await shown();
    for (const role of ["expert", "convener"]) {
      const refused = await post(role, { intent: "recompute" }).catch((e: unknown) => e);
      expect((refused as Response).status, role).toBe(403);
    }
    const bad = await post("analyst", { intent: "forget-everything" });
    expect(bad.status).toBe(400);
    expect((await shown()).computedAt).toBe(before.computedAt);
  });
});

it("is for analysts and admins only", async () => {
  for (const role of ["expert", "convener"]) {
    const thrown = await page(DEMO_EXPERIMENT, role).catch((e: unknown) => e);
    expect(thrown, role).toBeInstanceOf(Response);
    expect((thrown as Response).status, role).toBe(403);
  }
  expect((await page("few", "admin")).clicks.sessions).toBe(30);
  const missing = await page("no-such-experiment").catch((e: unknown) => e);
  expect((missing as Response).status).toBe(404);
});

it("keeps the last fit on screen while new events are fitted, with the refit's progress, then shows the new fit", async () => {
  const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  const settings = { seed: "stale-while-refit", testShare: 0.25, iterations: 20, maxRank: 10, B: 20 };
  const first = await clickModelFit(experiment, settings, { waitMs: Infinity });
  expect(first.refitting).toBeNull();
  const old = first.result!;
  // A convener's new session: the data version moves, so the next view starts a refit.
  const event = {
    type: "impression",
    at: "2026-11-20T10:00:00Z",
    experiment: DEMO_EXPERIMENT,
    arm: "A",
    unitId: "stale-unit",
    sessionId: "stale-session",
    proposalId: "prop-0001",
    items: ["cand-0001", "cand-0002"],
  };
  expect(
    (await ingestEvents(t.db, experiment, [{ ...event, eventId: "stale-1" }], { checkArm: false })).rejected,
  ).toEqual([]);
  let seen = await clickModelFit(experiment, settings, { waitMs: 0 });
  // Meanwhile: the last fit, its own computed-at, and why a refit runs.
  expect(seen).toMatchObject({ result: old, computedAt: first.computedAt, refitting: "new-data" });
  let pendingAnswers = 0;
  while (seen.refitting) {
    pendingAnswers++;
    expect(seen.result).toBe(old);
    if (seen.progress) expect(seen.progress.total).toBe(modelNames.length + settings.B);
    seen = await clickModelFit(experiment, settings, { waitMs: 100 });
  }
  expect(pendingAnswers).toBeGreaterThan(0);
  expect(seen.result!.sessions).toBe(old.sessions + 1);
  expect(Date.parse(seen.computedAt!)).toBeGreaterThan(Date.parse(first.computedAt!));
  // What the page says above the old figures meanwhile.
  const html = renderToStaticMarkup(
    createElement(Computing, {
      what: "click models",
      why: "New events or data since this fit: recomputing",
      progress: { done: 7, total: 32 },
      unit: CLICK_FIT_UNIT,
    }),
  );
  expect(html).toContain(
    "New events or data since this fit: recomputing (7 of 32 fits: the twelve models, then PBM refitted per resample)… The figures below",
  );
  expect(html).toMatch(/<progress[^>]*max="32"[^>]*value="7"/);
  // A Recompute on unchanged data shows the same fit meanwhile, saying only that it is recomputed.
  const again = await clickModelFit(experiment, settings, { waitMs: 0, fresh: true });
  expect(again).toMatchObject({ result: seen.result, refitting: "recompute" });
  while ((await clickModelFit(experiment, settings, { waitMs: 100 })).refitting);
});
