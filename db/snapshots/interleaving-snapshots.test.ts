import { sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, getExperiment } from "../experiments/experiments";
import { ingestEvents } from "../experiments/events";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { interleavingResult } from "../results/interleaving";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { resultRows } from "../../scripts/results/rows";
import type { OnlineEvent } from "../../scripts/online/events";
import { compareSnapshots, createSnapshot, getSnapshot } from "./snapshots";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  await importFile(t.db, "cli", "systems", "key,name,version\nhybrid,Hybrid,1\n", "csv");
});
afterAll(() => t.drop());

/** Sessions of one convener each: an impression drafted from `teams`, then clicks and adoptions. */
function sessions(experiment: string, specs: { teams: string[]; click: number[]; adopt: number[] }[]) {
  const events: OnlineEvent[] = [];
  specs.forEach((s, i) => {
    const base = {
      experiment,
      arm: "A",
      unitId: `u${i % 5}`,
      sessionId: `s${i}`,
      proposalId: "P-100",
    };
    const items = s.teams.map((_, k) => `C-${k + 1}`);
    const at = (k: number) => `2026-11-0${1 + (i % 3)}T10:00:${String(k).padStart(2, "0")}Z`;
    events.push({ ...base, eventId: `${i}-i`, type: "impression", at: at(0), items, teams: s.teams });
    s.click.forEach((k, j) =>
      events.push({ ...base, eventId: `${i}-c${j}`, type: "click", at: at(j + 1), candidateId: items[k] }),
    );
    s.adopt.forEach((k, j) =>
      events.push({ ...base, eventId: `${i}-a${j}`, type: "adopt", at: at(j + 20), candidateId: items[k] }),
    );
  });
  return events;
}

async function experimentWith(input: Record<string, unknown>, events: OnlineEvent[]) {
  const created = await createExperiment(t.db, "cli", experimentSchema.parse(input));
  await ingestEvents(t.db, created, events, { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") });
  return (await getExperiment(t.db, created.key))!;
}

describe("snapshots of interleaving experiments", () => {
  it("freeze a two-system experiment's win rates, read back equal to the live page, with rows to compare", async () => {
    const pattern = [
      { teams: ["bm25", "dense", "bm25"], click: [1], adopt: [0] },
      { teams: ["dense", "bm25"], click: [0, 1], adopt: [] },
      { teams: ["dense", "bm25"], click: [0], adopt: [0] },
      { teams: ["bm25", "dense"], click: [1], adopt: [1] },
    ];
    const experiment = await experimentWith(
      {
        key: "il",
        name: "Interleaved",
        kind: "interleaving",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
      },
      sessions("il", [...pattern, ...pattern, ...pattern]),
    );
    const frozen = await createSnapshot(t.db, "cli", { kind: "online", experiment: "il" }, runInProcess);
    expect(frozen.parameters).toEqual({
      kind: "online",
      experiment: "il",
      B: expect.any(Number),
      seed: experiment.seed,
      method: "team-draft",
    });
    const live = await interleavingResult(t.db, experiment, runInProcess);
    const stored = (await getSnapshot(t.db, frozen.id)).result as { interleaving: Record<string, unknown> };
    expect(stored.interleaving.figures).toEqual(JSON.parse(JSON.stringify(live.figures)));
    // The page's slices are frozen with it (issue 25: every result in snapshots).
    expect(live.slices).not.toBeNull();
    expect(stored.interleaving.slices).toEqual(JSON.parse(JSON.stringify(live.slices)));
    expect(stored.interleaving).toMatchObject({ method: "team-draft", control: "bm25", challenger: "dense" });
    const rows = resultRows("online", stored);
    expect(rows).toContainEqual({
      system: "dense",
      group: "click credit",
      measure: "winRate",
      value: live.figures!.click.winRate,
      lower: live.figures!.click.ci![0],
      upper: live.figures!.click.ci![1],
    });
    // A second freeze with another B differs in the intervals only; the comparison says so.
    const other = await createSnapshot(
      t.db,
      "cli",
      { kind: "online", experiment: "il", B: 300 },
      runInProcess,
    );
    const compared = compareSnapshots(await getSnapshot(t.db, frozen.id), await getSnapshot(t.db, other.id));
    const winRate = compared.figures.find((f) => f.measure === "winRate" && f.section === "click credit");
    expect(winRate?.changes).not.toContain("value");
  });

  it("freeze a multileave's preference matrix, Copeland ranking, method and credit, equal to the live page", async () => {
    await importFile(
      t.db,
      "cli",
      "lists",
      "system,proposal,rank,candidate,score,variant\nhybrid,P-100,1,C-4,3,\nhybrid,P-100,2,C-3,2,\n",
      "csv",
    );
    // hybrid's candidates are clicked most, bm25's least.
    const pattern = [
      { teams: ["hybrid", "dense", "bm25"], click: [0, 1], adopt: [0] },
      { teams: ["bm25", "hybrid", "dense"], click: [1], adopt: [1] },
      { teams: ["dense", "bm25", "hybrid"], click: [0, 2], adopt: [2] },
    ];
    const experiment = await experimentWith(
      {
        key: "ml",
        name: "Multileaved",
        kind: "interleaving",
        method: "multileaving",
        arms: ["A", "B", "C"].map((key, i) => ({
          key,
          system: ["bm25", "dense", "hybrid"][i],
          weight: 1 / 3,
        })),
        control: "A",
      },
      sessions("ml", [...pattern, ...pattern, ...pattern, ...pattern]),
    );
    const frozen = await createSnapshot(t.db, "cli", { kind: "online", experiment: "ml" }, runInProcess);
    const live = await interleavingResult(t.db, experiment, runInProcess);
    const stored = (await getSnapshot(t.db, frozen.id)).result as { interleaving: Record<string, unknown> };
    expect(stored.interleaving.multileaving).toEqual(JSON.parse(JSON.stringify(live.multileaving)));
    expect(live.multileavingSlices).not.toBeNull();
    expect(stored.interleaving.multileavingSlices).toEqual(
      JSON.parse(JSON.stringify(live.multileavingSlices)),
    );
    expect(stored.interleaving).toMatchObject({
      method: "multileaving",
      systems: ["bm25", "dense", "hybrid"],
      figures: null,
    });
    expect(live.multileaving!.click.ranking[0]).toMatchObject({ system: "hybrid", rank: 1, copeland: 2 });
    const rows = resultRows("online", stored);
    const share = live.multileaving!.click.pairs.find((p) => p.system === "hybrid" && p.other === "bm25")!;
    expect(rows).toContainEqual({
      system: "hybrid",
      group: "click credit vs bm25",
      measure: "preferenceShare",
      value: share.share,
      lower: share.ci?.[0] ?? null,
      upper: share.ci?.[1] ?? null,
    });
    expect(rows.filter((r) => r.group === "adopt credit ranking" && r.measure === "rank")).toHaveLength(3);
  });

  it("refuses an interleaving experiment without sessions, writing nothing", async () => {
    await experimentWith(
      {
        key: "empty-il",
        name: "Empty",
        kind: "interleaving",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
      },
      [],
    );
    const count = async () => (await t.db.execute(sql`select count(*)::int as n from snapshots`))[0];
    const before = await count();
    await expect(
      createSnapshot(t.db, "cli", { kind: "online", experiment: "empty-il" }, runInProcess),
    ).rejects.toThrow("Experiment empty-il has no sessions with an impression yet.");
    expect(await count()).toEqual(before);
  });
});
