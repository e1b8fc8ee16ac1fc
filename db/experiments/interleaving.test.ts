import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, getExperiment, setExperimentStatus } from "./experiments";
import { createUser } from "../accounts/users";
import { adopt, openProposal, recordImpression, recordProfileClick } from "./convener";
import { exportEvents, ingestEvents } from "./events";
import { loadInterleavingData } from "./interleaving-data";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { teamDraft } from "../../scripts/interleaving/team-draft";
import { teamDraftMultileave } from "../../scripts/interleaving/multileave";
import {
  marginalisedOutcome,
  positionPosteriors,
  probabilisticInterleave,
} from "../../scripts/interleaving/probabilistic";
import { ExperimentError } from "./experiments";
import { interleavingResult } from "../results/interleaving";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { interleavingFigures } from "../../scripts/interleaving/figures";
import { resultFromCredit, sessionCredits } from "../../scripts/interleaving/index";
import type { OnlineEvent } from "../../scripts/online/events";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let convener = 0;

const interleaving = (key: string, extra: Record<string, unknown> = {}) =>
  experimentSchema.parse({
    key,
    name: key,
    kind: "interleaving",
    arms: [
      { key: "A", system: "bm25", weight: 0.5 },
      { key: "B", system: "dense", weight: 0.5 },
    ],
    control: "A",
    ...extra,
  });

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  convener = (
    await createUser(t.db, "cli", {
      email: "convener@assay.local",
      name: "Cora",
      roles: ["convener"],
      password: "long-enough-1",
    })
  ).id;
  await importFile(t.db, "cli", "conveners", fixture("conveners.csv"), "csv");
});
afterAll(() => t.drop());

describe("the interleaving experiment kind", () => {
  it("takes exactly two different systems, with a sentence otherwise", () => {
    const three = experimentSchema.safeParse({
      key: "x",
      name: "x",
      kind: "interleaving",
      arms: ["A", "B", "C"].map((key, i) => ({ key, system: ["bm25", "dense", "x"][i], weight: 1 / 3 })),
      control: "A",
    });
    expect(three.success ? [] : three.error.issues.map((i) => i.message)).toContain(
      "team-draft interleaving compares exactly two systems, not 3; choose multileaving for three or more",
    );
    const same = experimentSchema.safeParse({
      key: "x",
      name: "x",
      kind: "interleaving",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "bm25", weight: 0.5 },
      ],
      control: "A",
    });
    expect(same.success ? [] : same.error.issues.map((i) => i.message)).toContain(
      "an interleaving experiment needs different systems, not bm25 twice",
    );
    expect(
      experimentSchema
        .safeParse({ key: "x", name: "x", kind: "split", arms: [], control: "A" })
        .error?.issues.map((i) => i.message),
    ).toContain("kind must be ab or interleaving");
  });

  it("shows each session the team-draft merge, the same on reload, logs teams, and gives the page no team", async () => {
    await createExperiment(t.db, "cli", interleaving("ilv"));
    await setExperimentStatus(t.db, "cli", "ilv", "running");
    const first = await openProposal(t.db, convener, "P-100");
    await recordImpression(t.db, convener, "P-100", first.view!);
    const expected = teamDraft(["C-2", "C-1", "C-4"], ["C-1", "C-2"], {
      depth: 3,
      seed: "ilv",
      sessionId: first.session!.id,
      systems: ["bm25", "dense"],
    });
    expect(first.list.map((c) => c.externalId)).toEqual(expected.items);
    expect(first.list.map((c) => c.rank)).toEqual([1, 2, 3]);
    // Nothing the page receives says which system placed whom: no teams, no system key.
    const sent = JSON.stringify(first);
    expect(sent).not.toMatch(/teams|bm25|dense/);
    const again = await openProposal(t.db, convener, "P-100");
    await recordImpression(t.db, convener, "P-100", again.view!);
    expect(again.session).toEqual(first.session);
    expect(again.list).toEqual(first.list);
    const stored = await t.db.execute<{ items: string[]; teams: string[] }>(
      sql`select items, teams from events where type = 'impression' order by received_at`,
    );
    expect(stored).toEqual([expected, expected].map(({ items, teams }) => ({ items, teams })));
    // Clicks and adoptions work on the merged list, and the stored events credit the right team.
    await recordProfileClick(t.db, convener, "P-100", expected.items[0]);
    await adopt(t.db, convener, "P-100", expected.items[0]);
    const experiment = (await getExperiment(t.db, "ilv"))!;
    const data = await loadInterleavingData(t.db, experiment);
    expect(data.sessions).toEqual([
      {
        unit: `convener-${convener}`,
        session: first.session!.id,
        click: { [expected.teams[0]]: 1 },
        adopt: { [expected.teams[0]]: 1 },
        day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        // The session's proposal: its slice by subject on the analyst page.
        proposal: "P-100",
      },
    ]);
    await setExperimentStatus(t.db, "cli", "ilv", "stopped");
  });
});

describe("a multileaving experiment", () => {
  const three = (extra: Record<string, unknown> = {}) => ({
    key: "ml",
    name: "ml",
    kind: "interleaving",
    method: "multileaving",
    arms: ["A", "B", "C"].map((key, i) => ({ key, system: ["bm25", "dense", "hybrid"][i], weight: 1 / 3 })),
    control: "A",
    ...extra,
  });
  const messages = (input: unknown) => {
    const r = experimentSchema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it("takes three or more different systems, names what is wrong otherwise, and writes nothing for an unknown system", async () => {
    expect(messages(three({ arms: three().arms.slice(0, 2), control: "A" }))).toContain(
      "multileaving compares three or more systems, not 2; choose team-draft interleaving for two",
    );
    expect(messages(three({ method: "shuffle" }))).toContain(
      "method must be one of team-draft, multileaving, probabilistic",
    );
    const before = await t.db.execute(sql`select count(*)::int as n from experiments`);
    await expect(createExperiment(t.db, "cli", experimentSchema.parse(three()))).rejects.toThrow(
      new ExperimentError("Unknown system hybrid."),
    );
    expect(await t.db.execute(sql`select count(*)::int as n from experiments`)).toEqual(before);
  });

  it("shows each session the multileave of every arm's list, logs three teams, gives the page none, and ranks the systems", async () => {
    await importFile(t.db, "cli", "systems", "key,name,version\nhybrid,Hybrid,1\n", "csv");
    await importFile(
      t.db,
      "cli",
      "lists",
      "system,proposal,rank,candidate,score,variant\nhybrid,P-100,1,C-4,3,\nhybrid,P-100,2,C-3,2,\n",
      "csv",
    );
    const created = await createExperiment(t.db, "cli", experimentSchema.parse(three()));
    expect(created.method).toBe("multileaving");
    await setExperimentStatus(t.db, "cli", "ml", "running");
    const first = await openProposal(t.db, convener, "P-100");
    await recordImpression(t.db, convener, "P-100", first.view!); // the page, once shown, posts it
    const expected = teamDraftMultileave(
      [
        { system: "bm25", list: ["C-2", "C-1", "C-4"] },
        { system: "dense", list: ["C-1", "C-2"] },
        { system: "hybrid", list: ["C-4", "C-3"] },
      ],
      { depth: 3, seed: "ml", sessionId: first.session!.id },
    );
    expect(first.list.map((c) => c.externalId)).toEqual(expected.items);
    expect(new Set(expected.teams)).toEqual(new Set(["bm25", "dense", "hybrid"]));
    // Blind: no team, no system key, no system's own rank reaches the page.
    expect(JSON.stringify(first)).not.toMatch(/teams|bm25|dense|hybrid/);
    expect(first.list.map((c) => c.rank)).toEqual([1, 2, 3]);
    const [stored] = await t.db.execute<{ items: string[]; teams: string[] }>(
      sql`select e.items, e.teams from events e join experiments x on x.id = e.experiment_id
          where x.key = 'ml' and e.type = 'impression'`,
    );
    expect(stored).toEqual(expected);
    await recordProfileClick(t.db, convener, "P-100", expected.items[0]);
    const experiment = (await getExperiment(t.db, "ml"))!;
    const page = await interleavingResult(t.db, experiment, runInProcess);
    expect(page.figures).toBeNull();
    expect(page.systems).toEqual(["bm25", "dense", "hybrid"]);
    const winner = expected.teams[0];
    const click = page.multileaving!.click;
    expect(click.ranking[0]).toMatchObject({ system: winner, copeland: 2, rank: 1 });
    for (const p of click.pairs.filter((p) => p.system === winner))
      expect(p).toMatchObject({ wins: 1, losses: 0, share: 1 });
    await setExperimentStatus(t.db, "cli", "ml", "stopped");
  });
});

describe("a probabilistic interleaving experiment", () => {
  it("shows the softmax rankers' draw, gives the page no team, and credits the marginalised outcome", async () => {
    await createExperiment(t.db, "cli", interleaving("pi", { method: "probabilistic" }));
    await setExperimentStatus(t.db, "cli", "pi", "running");
    const first = await openProposal(t.db, convener, "P-100");
    await recordImpression(t.db, convener, "P-100", first.view!);
    const [listA, listB] = [
      ["C-2", "C-1", "C-4"],
      ["C-1", "C-2"],
    ];
    const expected = probabilisticInterleave(listA, listB, {
      depth: 3,
      seed: "pi",
      sessionId: first.session!.id,
      systems: ["bm25", "dense"],
    });
    expect(first.list.map((c) => c.externalId)).toEqual(expected.items);
    expect(JSON.stringify(first)).not.toMatch(/teams|bm25|dense/);
    await recordProfileClick(t.db, convener, "P-100", expected.items[0]);
    const data = await loadInterleavingData(t.db, (await getExperiment(t.db, "pi"))!);
    const { a, b } = marginalisedOutcome(positionPosteriors(expected.items, listA, listB), [0]);
    expect(data.quality.sessionsWithoutLists).toBe(0);
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0].click.bm25).toBeCloseTo(a, 12);
    expect(data.sessions[0].click.dense).toBeCloseTo(b, 12);
    expect(a + b).toBeCloseTo(1, 12);
    await setExperimentStatus(t.db, "cli", "pi", "stopped");
  });
});

describe("the interleaving results loader", () => {
  // Four hand-worked sessions over two days (bm25 control, dense challenger):
  // s1 (day 1): dense's C-2 clicked, bm25's C-1 adopted        → click: dense; adopt: bm25
  // s2 (day 1): one click for each                               → click: tie;   adopt: none
  // s3 (day 2): nothing clicked; C-2 adopted then removed         → click: none;  adopt: none
  // s4 (day 2): dense's C-5 clicked and adopted                   → click: dense; adopt: dense
  const event = (
    n: number,
    type: OnlineEvent["type"],
    day: number,
    unit: string,
    session: string,
    extra: Partial<OnlineEvent> = {},
  ): OnlineEvent => ({
    eventId: `e${n}`,
    type,
    at: `2026-11-0${day}T10:00:${String(n).padStart(2, "0")}Z`,
    experiment: "hand",
    arm: "A",
    unitId: unit,
    sessionId: session,
    proposalId: "P-100",
    ...extra,
  });
  const events: OnlineEvent[] = [
    event(1, "impression", 1, "u1", "s1", { items: ["C-1", "C-2", "C-3"], teams: ["bm25", "dense", "bm25"] }),
    event(2, "click", 1, "u1", "s1", { candidateId: "C-2" }),
    event(3, "adopt", 1, "u1", "s1", { candidateId: "C-1" }),
    event(4, "impression", 1, "u1", "s2", { items: ["C-1", "C-2"], teams: ["dense", "bm25"] }),
    event(5, "click", 1, "u1", "s2", { candidateId: "C-1" }),
    event(6, "click", 1, "u1", "s2", { candidateId: "C-2" }),
    event(7, "impression", 2, "u2", "s3", { items: ["C-1", "C-2"], teams: ["bm25", "dense"] }),
    event(8, "adopt", 2, "u2", "s3", { candidateId: "C-2" }),
    event(9, "unadopt", 2, "u2", "s3", { candidateId: "C-2" }),
    event(10, "impression", 2, "u2", "s4", { items: ["C-5", "C-6"], teams: ["dense", "bm25"] }),
    event(11, "click", 2, "u2", "s4", { candidateId: "C-5" }),
    event(12, "adopt", 2, "u2", "s4", { candidateId: "C-5" }),
  ];

  it("counts wins, ties and no-preference sessions by click and by adoption credit, day by day", async () => {
    const created = await createExperiment(t.db, "cli", interleaving("hand"));
    const stored = await ingestEvents(t.db, created, events, {
      checkArm: false,
      now: Date.parse("2030-01-01T00:00:00Z"),
    });
    expect(stored).toMatchObject({ accepted: 12, rejected: [] });
    const data = await loadInterleavingData(t.db, (await getExperiment(t.db, "hand"))!);
    expect([data.control, data.challenger]).toEqual(["bm25", "dense"]);
    const figures = interleavingFigures({
      sessions: data.sessions,
      control: data.control,
      challenger: data.challenger,
      B: 200,
      seed: "hand",
    });
    expect(figures.click).toMatchObject({
      sessions: 4,
      wins: { bm25: 0, dense: 2 },
      ties: 1,
      noPreference: 1,
      winRate: 2.5 / 3,
      pValue: expect.closeTo(0.5, 12),
    });
    expect(figures.adopt).toMatchObject({
      sessions: 4,
      wins: { bm25: 1, dense: 1 },
      ties: 0,
      noPreference: 2,
      winRate: 0.5,
      pValue: expect.closeTo(1, 12),
    });
    expect(figures.daily.map((d) => [d.day, d.sessions, d.click.winRate, d.adopt.winRate])).toEqual([
      ["2026-11-01", 2, 0.75, 0],
      ["2026-11-02", 4, 2.5 / 3, 0.5],
    ]);
    // The page's figures are `assay interleave`'s on the same events, interval included.
    const exported: OnlineEvent[] = [];
    for await (const page of exportEvents(t.db, (await getExperiment(t.db, "hand"))!)) exported.push(...page);
    for (const credit of ["click", "adopt"] as const) {
      const cli = resultFromCredit(sessionCredits(exported), {
        control: "bm25",
        credit,
        B: 200,
        seed: "hand",
      });
      expect(cli.ok && "result" in cli && cli.result).toEqual(figures[credit]);
    }
  });

  it("counts an impression sent without teams instead of crediting it", async () => {
    const experiment = (await getExperiment(t.db, "hand"))!;
    await ingestEvents(
      t.db,
      experiment,
      [
        event(13, "impression", 3, "u3", "s5", { items: ["C-1"] }),
        event(14, "click", 3, "u3", "s5", { candidateId: "C-1" }),
      ],
      { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") },
    );
    const data = await loadInterleavingData(t.db, experiment);
    expect(data.quality).toMatchObject({
      events: 14,
      impressionsWithoutTeams: 1,
      sessionsWithoutImpression: 1,
    });
    expect(data.sessions).toHaveLength(4);
  });
});
