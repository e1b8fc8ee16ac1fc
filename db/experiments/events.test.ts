import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import {
  assignUnit,
  createApiKey,
  createExperiment,
  experimentForApiKey,
  getExperiment,
  revokeApiKey,
  setExperimentStatus,
  ExperimentError,
  type ExperimentWithArms,
} from "./experiments";
import { exportEvents, ingestEvents } from "./events";
import { onlineReport } from "../../scripts/online/report";
import { experimentSchema } from "../../scripts/inputs/experiments";
import type { OnlineEvent } from "../../scripts/online/events";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let live: ExperimentWithArms;

const now = Date.parse("2026-11-21T12:00:00Z");
function event(unit: string, arm: string, extra: Partial<OnlineEvent> = {}): OnlineEvent {
  return {
    eventId: randomUUID(),
    type: "click",
    at: "2026-11-21T11:00:00Z",
    experiment: "live",
    arm,
    unitId: unit,
    sessionId: `${unit}-s`,
    proposalId: "P-100",
    candidateId: "C-1",
    ...extra,
  };
}
async function storedEvents() {
  const [row] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from events`);
  return row.n;
}

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  live = await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "live",
      name: "Live",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "live", "running");
  // The events below are dated 2026-11-21 (`now`); the experiment started before them.
  await t.db.execute(sql`update experiments set started_at = '2026-11-20T00:00:00Z' where key = 'live'`);
  live = (await getExperiment(t.db, "live"))!;
});
afterAll(() => t.drop());

describe("experiments", () => {
  it("validates arms, control and weights with sentences naming the problem", () => {
    const bad = experimentSchema.safeParse({
      key: "x",
      name: "X",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "A", system: "dense", weight: 0.6 },
      ],
      control: "C",
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      "arm A is given twice",
      "the control arm C is not one of the arms (A, A)",
      "arm weights must sum to 1, within 0.99 to 1.01 (they sum to 1.1)",
    ]);
    // GrowthBook's tolerance: three arms of 0.33 are fine, as in its SDK.
    const thirds = ["A", "B", "C"].map((key) => ({ key, system: "bm25", weight: 0.33 }));
    expect(experimentSchema.safeParse({ key: "x", name: "X", arms: thirds, control: "A" }).success).toBe(
      true,
    );
  });

  it("rejects unknown systems and a second experiment with the same key", async () => {
    await expect(
      createExperiment(
        t.db,
        "cli",
        experimentSchema.parse({
          key: "y",
          name: "Y",
          arms: [
            { key: "A", system: "nope", weight: 0.5 },
            { key: "B", system: "dense", weight: 0.5 },
          ],
          control: "A",
        }),
      ),
    ).rejects.toThrow("Unknown system nope.");
    await expect(
      createExperiment(
        t.db,
        "cli",
        experimentSchema.parse({
          key: "live",
          name: "Again",
          arms: [
            { key: "A", system: "bm25", weight: 0.5 },
            { key: "B", system: "dense", weight: 0.5 },
          ],
          control: "A",
        }),
      ),
    ).rejects.toThrow(ExperimentError);
  });

  it("moves draft → running → stopped only", async () => {
    await expect(setExperimentStatus(t.db, "cli", "live", "running")).rejects.toThrow(
      "Experiment live is running; only a draft experiment can be started.",
    );
  });

  it("assigns by GrowthBook's hash and keeps the first arm", async () => {
    const first = await assignUnit(t.db, live, "convener-1");
    expect(first.counted).toBe(true);
    expect(await assignUnit(t.db, live, "convener-1")).toEqual(first);
    // Sticky even if the hash would now say otherwise: the stored exposure wins.
    await t.db.execute(
      sql`update exposures set arm_id = ${live.arms.find((a) => a.key !== first.arm)!.id} where unit = 'convener-1'`,
    );
    expect((await assignUnit(t.db, live, "convener-1")).arm).not.toBe(first.arm);
  });

  it("API keys: shown once, stored hashed, refused once revoked or expired", async () => {
    const { key, id } = await createApiKey(t.db, "cli", "live");
    const [row] = await t.db.execute<{ hash: string }>(
      sql`select hash from experiment_api_keys where id = ${id}`,
    );
    expect(row.hash).not.toContain(key);
    expect((await experimentForApiKey(t.db, key))?.key).toBe("live");
    await revokeApiKey(t.db, "cli", live.id, id);
    expect(await experimentForApiKey(t.db, key)).toBeNull();
    const expired = await createApiKey(t.db, "cli", "live", { expiresAt: new Date(Date.now() - 1000) });
    expect(await experimentForApiKey(t.db, expired.key)).toBeNull();
    expect(await experimentForApiKey(t.db, "assay_not-a-key")).toBeNull();
  });
});

describe("ingestEvents", () => {
  const unitIn = async (unit: string) => (await assignUnit(t.db, live, unit)).arm;

  it("stores a batch once: sent twice, the second time every event is a duplicate", async () => {
    const arm = await unitIn("u-twice");
    const batch = [event("u-twice", arm), event("u-twice", arm, { type: "adopt" })];
    expect(await ingestEvents(t.db, live, batch, { checkArm: true, now })).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [],
    });
    expect(await ingestEvents(t.db, live, batch, { checkArm: true, now })).toEqual({
      accepted: 0,
      duplicates: 2,
      rejected: [],
    });
  });

  it("counts a repeated event id inside one batch as a duplicate", async () => {
    const arm = await unitIn("u-dup");
    const e = event("u-dup", arm);
    expect(await ingestEvents(t.db, live, [e, e], { checkArm: true, now })).toEqual({
      accepted: 1,
      duplicates: 1,
      rejected: [],
    });
  });

  it("scopes event ids by experiment: another experiment's id is a new event, and its answer tells nothing", async () => {
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key: "other",
        name: "Other",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
      }),
    );
    const other = (await getExperiment(t.db, "other"))!;
    const shared = event("u-shared", "A", { eventId: "shared-1" });
    const fresh = event("u-shared", "A", { eventId: "fresh-1" });
    expect(await ingestEvents(t.db, live, [shared], { checkArm: false, now })).toMatchObject({ accepted: 1 });
    // The other experiment gets the same answer for live's id as for an id nobody used.
    const answer = { accepted: 2, duplicates: 0, rejected: [] };
    expect(
      await ingestEvents(
        t.db,
        other,
        [shared, fresh].map((e) => ({ ...e, experiment: "other" })),
        {
          checkArm: false,
          now,
        },
      ),
    ).toEqual(answer);
    const rows = await t.db.execute<{ key: string }>(
      sql`select x.key from events e join experiments x on x.id = e.experiment_id where e.event_id = 'shared-1' order by x.key`,
    );
    expect(rows.map((r) => r.key)).toEqual(["live", "other"]);
    // Within one experiment, the id still counts once.
    expect(
      await ingestEvents(t.db, other, [{ ...shared, experiment: "other" }], { checkArm: false, now }),
    ).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
  });

  it("rejects live events dated before the experiment's start beyond 5 minutes of clock skew", async () => {
    const arm = await unitIn("u-early");
    const start = live.startedAt!.getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    const result = await ingestEvents(
      t.db,
      live,
      [
        event("u-early", arm, { at: at(start - 4 * 60_000) }),
        event("u-early", arm, { at: at(start - 6 * 60_000) }),
        event("u-early", arm, { at: "2019-01-01T00:00:00Z" }),
      ],
      { checkArm: true, now },
    );
    const reason = `at is more than 5 minutes before experiment live started (${at(start)})`;
    expect(result).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [
        { index: 1, reason },
        { index: 2, reason },
      ],
    });
  });

  it("stores exactly the unique events of 10,000 with 10% retried duplicates", async () => {
    const before = await storedEvents();
    const unique = Array.from({ length: 9000 }, (_, i) => event(`bulk-${i % 50}`, "A"));
    const withRetries = [...unique, ...unique.slice(0, 1000)];
    let accepted = 0;
    let duplicates = 0;
    for (let i = 0; i < withRetries.length; i += 500) {
      const r = await ingestEvents(t.db, live, withRetries.slice(i, i + 500), { checkArm: false, now });
      accepted += r.accepted;
      duplicates += r.duplicates;
      expect(r.rejected).toEqual([]);
    }
    expect({ accepted, duplicates }).toEqual({ accepted: 9000, duplicates: 1000 });
    expect((await storedEvents()) - before).toBe(9000);
  });

  it("rejects, with reasons, what is wrong and stores the rest", async () => {
    const arm = await unitIn("u-mixed");
    const other = live.arms.find((a) => a.key !== arm)!.key;
    const result = await ingestEvents(
      t.db,
      live,
      [
        event("u-mixed", arm),
        event("u-mixed", other),
        { ...event("u-mixed", arm), experiment: "other" },
        event("u-mixed", "Z"),
        event("u-mixed", arm, { at: "2026-11-21T12:06:00Z" }),
        { ...event("u-mixed", arm), type: "hover" },
        event("u-mixed", arm, { proposalId: "<script>alert(1)</script>'; drop table events; --" }),
        event("u-mixed", arm, { candidateId: "a\u0000b" }),
      ],
      { checkArm: true, now },
    );
    expect(result.accepted).toBe(2);
    expect(result.rejected).toEqual([
      { index: 1, reason: `unit u-mixed is in arm ${arm}, not ${other}` },
      { index: 2, reason: "unknown experiment other (this key is for live)" },
      { index: 3, reason: "unknown arm Z (arms: A, B)" },
      { index: 4, reason: "at is more than 5 minutes in the future" },
      { index: 5, reason: "type must be one of impression, click, adopt, unadopt, finish" },
      { index: 7, reason: "candidateId contains a NUL character" },
    ]);
    const [stored] = await t.db.execute<{ proposal_id: string }>(
      sql`select proposal_id from events where proposal_id like '<script>%'`,
    );
    expect(stored.proposal_id).toBe("<script>alert(1)</script>'; drop table events; --");
  });

  it("writes nothing of a batch when the database fails part-way, and the retry stores it all", async () => {
    const before = await storedEvents();
    const batch = Array.from({ length: 1500 }, () => event("fault", "A"));
    const poison = batch[1200].eventId;
    await t.db.execute(
      sql.raw(`create function fail_on_poison() returns trigger language plpgsql as $$ begin if new.event_id = '${poison}' then raise exception 'injected fault'; end if; return new; end $$;
               create trigger poison before insert on events for each row execute function fail_on_poison();`),
    );
    await expect(ingestEvents(t.db, live, batch, { checkArm: false, now })).rejects.toThrow();
    expect(await storedEvents()).toBe(before);
    await t.db.execute(sql`drop trigger poison on events`);
    expect(await ingestEvents(t.db, live, batch, { checkArm: false, now })).toMatchObject({
      accepted: 1500,
      duplicates: 0,
    });
  });
});

describe("the online-small reference through the database", () => {
  it("imports historical events, exports them, and gives the reference's numbers", async () => {
    const ref = path.join(__dirname, "../../test/fixtures/online-small");
    const expected = JSON.parse(fs.readFileSync(path.join(ref, "expected.json"), "utf8"));
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key: "exp-1",
        name: "Reference",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
      }),
    );
    const experiment = (await getExperiment(t.db, "exp-1"))!;
    const lines = fs
      .readFileSync(path.join(ref, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const result = await ingestEvents(t.db, experiment, lines, {
      checkArm: false,
      now: Date.parse("2026-11-02T00:00:00Z"),
    });
    expect(result).toEqual({
      accepted: expected.uniqueEvents,
      duplicates: expected.events - expected.uniqueEvents,
      rejected: [],
    });
    const exported: OnlineEvent[] = [];
    for await (const page of exportEvents(t.db, experiment, 100)) exported.push(...page);
    expect(exported).toHaveLength(expected.uniqueEvents);
    const report = onlineReport(exported, { weights: { A: 0.5, B: 0.5 } });
    for (const arm of ["A", "B"]) {
      expect(report.arms[arm]).toMatchObject({
        units: expected.arms[arm].units,
        sessions: expected.arms[arm].sessions,
        shown: expected.arms[arm].shown,
        adopted: expected.arms[arm].adopted,
      });
      expect(report.arms[arm].ctr).toBeCloseTo(expected.arms[arm].ctr, 12);
    }
  });
});
