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
      "an interleaving experiment compares exactly two systems, not 3",
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
      "an interleaving experiment needs two different systems, not bm25 twice",
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
      },
    ]);
    await setExperimentStatus(t.db, "cli", "ilv", "stopped");
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
      expect(cli.ok && cli.result).toEqual(figures[credit]);
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
