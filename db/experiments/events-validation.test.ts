import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, getExperiment, setExperimentStatus, type ExperimentWithArms } from "./experiments";
import { ingestEvents } from "./events";
import { experimentSchema } from "../../scripts/inputs/experiments";
import type { OnlineEvent } from "../../scripts/online/events";

/** Events are checked as PostgreSQL stores them: data never turns a batch into a failure to retry. */
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let live: ExperimentWithArms;
const now = Date.parse("2026-11-21T12:00:00Z");

function event(extra: Partial<OnlineEvent> = {}, experiment = "checked"): OnlineEvent {
  return {
    eventId: randomUUID(),
    type: "click",
    at: "2026-11-21T11:00:00Z",
    experiment,
    arm: "A",
    unitId: "u",
    sessionId: "s",
    proposalId: "P-100",
    candidateId: "C-1",
    ...extra,
  };
}
const storedIds = async (ids: string[]) =>
  (
    await t.db.execute<{ event_id: string }>(
      sql`select event_id from events where event_id in ${
        ids.length
          ? sql`(${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql`(null)`
      } order by event_id`,
    )
  ).map((r) => r.event_id);
const create = async (key: string) => {
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key,
      name: key,
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", key, "running");
  return (await getExperiment(t.db, key))!;
};

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  live = await create("checked");
});
afterAll(() => t.drop());

describe("a batch with a poison event", () => {
  it("stores the good events, rejects 2025-02-30 by index and reason, and a retry counts the good ones as duplicates", async () => {
    const batch = [
      event(),
      event({ at: "2025-02-30T10:00:00Z" }),
      event(),
      event({ at: "2026-11-21T11:30:00+01:00" }),
    ];
    const first = await ingestEvents(t.db, live, batch, { checkArm: false, now });
    const poison = {
      index: 1,
      reason: 'at "2025-02-30T10:00:00Z" is not on the calendar: February 2025 has 28 days',
    };
    expect(first).toEqual({ accepted: 3, duplicates: 0, rejected: [poison] });
    expect(await ingestEvents(t.db, live, batch, { checkArm: false, now })).toEqual({
      accepted: 0,
      duplicates: 3,
      rejected: [poison],
    });
    expect(await storedIds(batch.map((e) => e.eventId))).toEqual(
      [batch[0], batch[2], batch[3]].map((e) => e.eventId).sort(),
    );
  });
});

describe("times as PostgreSQL stores them", () => {
  it("rejects times PostgreSQL would refuse or read otherwise than JavaScript, and stores the rest", async () => {
    // PostgreSQL refuses the first four; it would accept the next four, each meaning something else or
    // depending on the server's time zone, while Date.parse refuses them or reads them differently.
    const badTimes = [
      "2025-02-30T10:00:00Z",
      "2025-01-01T10:00:00+25:00",
      "2025-01-01T10:00:00+16:00",
      "2025-01-01T10:00:00Z\u0000",
      "2025-01-01T10:00:00",
      "2016-12-31T23:59:60Z",
      "2025-1-1T10:00:00Z",
      "2025-01-01T10:00:00 +05:00",
      "1999-06-01T00:00:00Z",
      "2101-06-01T00:00:00Z",
    ];
    const goodTimes = [
      "2025-01-01T24:00:00Z",
      "2024-02-29T10:00:00+05:30",
      "2025-03-01T10:00:00.123456Z",
      "2025-03-01T10:00:00.9999999-02:00",
      "2000-01-01T00:00:00Z",
      "2026-11-21T11:59:59.999Z",
    ];
    const batch = [...badTimes, ...goodTimes].map((at) => event({ at }));
    const result = await ingestEvents(t.db, live, batch, { checkArm: false, now });
    expect(result.accepted).toBe(goodTimes.length);
    expect(result.rejected.map((r) => r.index)).toEqual(badTimes.map((_, i) => i));
    for (const r of result.rejected) expect(r.reason).toMatch(/^at "/);
    const ids = batch.slice(badTimes.length).map((e) => e.eventId);
    const rows = await t.db.execute<{ event_id: string; ms: number }>(
      sql`select event_id, extract(epoch from at)::float8 * 1000 as ms from events where event_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    // The instant PostgreSQL stored is the one JavaScript reads, to JavaScript's precision: PostgreSQL
    // rounds to microseconds, Date.parse truncates to milliseconds (.9999999 is 1 ms apart).
    for (const row of rows)
      expect(
        Math.abs(row.ms - Date.parse(batch.find((e) => e.eventId === row.event_id)!.at)),
      ).toBeLessThanOrEqual(1);
    expect(rows).toHaveLength(goodTimes.length);
  });
});

describe("strings as PostgreSQL stores them", () => {
  it("rejects ids with lone surrogates instead of storing both as one, and keeps a surrogate pair intact", async () => {
    const pair = `sur-\ud83d\ude00-${randomUUID()}`;
    const batch = [
      event({ eventId: "sur-\ud800" }),
      event({ eventId: "sur-\udbff" }),
      event({ eventId: pair }),
      event({ unitId: "unit-\udc00" }),
    ];
    const result = await ingestEvents(t.db, live, batch, { checkArm: false, now });
    expect(result.accepted).toBe(1);
    expect(result.rejected).toEqual([
      {
        index: 0,
        reason: "eventId contains a lone UTF-16 surrogate (not a character; send well-formed Unicode)",
      },
      {
        index: 1,
        reason: "eventId contains a lone UTF-16 surrogate (not a character; send well-formed Unicode)",
      },
      {
        index: 3,
        reason: "unitId contains a lone UTF-16 surrogate (not a character; send well-formed Unicode)",
      },
    ]);
    const rows = await t.db.execute<{ event_id: string }>(
      sql`select event_id from events where event_id like 'sur-%'`,
    );
    expect(rows.map((r) => r.event_id)).toEqual([pair]);
    expect([...rows[0].event_id].slice(0, 5)).toEqual(["s", "u", "r", "-", "😀"]);
  });

  it("rejects a NUL in any stored string and keeps items that look like array syntax exactly", async () => {
    const odd = ["NULL", '"quoted"', "back\\slash", "{braces}", "a,b", " spaced ", "😀"];
    const batch = [
      event({ sessionId: "s\u0000" }),
      event({ type: "impression", candidateId: undefined, items: ["C-1", "C-\u00002"] }),
      event({ proposalId: "\u0000" }),
      event({ type: "impression", candidateId: undefined, items: odd }),
    ];
    const result = await ingestEvents(t.db, live, batch, { checkArm: false, now });
    expect(result).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [
        { index: 0, reason: "sessionId contains a NUL character" },
        { index: 1, reason: "item 2 of items contains a NUL character" },
        { index: 2, reason: "proposalId contains a NUL character" },
      ],
    });
    const [row] = await t.db.execute<{ items: string[] }>(
      sql`select items from events where event_id = ${batch[3].eventId}`,
    );
    expect(row.items).toEqual(odd);
  });
});

describe("a stopped experiment", () => {
  it("keeps late arrivals dated before the stop and rejects events dated after it, saying when it stopped", async () => {
    const halt = await create("halt");
    await setExperimentStatus(t.db, "cli", "halt", "stopped");
    const stopped = (await getExperiment(t.db, "halt"))!;
    const stop = stopped.stoppedAt!;
    const at = (ms: number) => new Date(stop.getTime() + ms).toISOString();
    const batch = [
      event({ at: at(-60_000) }, "halt"),
      event({ at: at(1000) }, "halt"),
      event({ at: at(0) }, "halt"),
      event({ at: at(3_600_000) }, "halt"),
    ];
    const result = await ingestEvents(t.db, halt, batch, {
      checkArm: false,
      now: stop.getTime() + 7_200_000,
    });
    const reason = `experiment halt was stopped at ${stop.toISOString()}; events dated after the stop are not accepted`;
    expect(result).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 1, reason },
        { index: 3, reason },
      ],
    });
  });

  it("reads the stop when storing, not when the experiment was looked up", async () => {
    const late = await create("late-stop");
    await setExperimentStatus(t.db, "cli", "late-stop", "stopped");
    // `late` was read while the experiment was running: the stop is still honoured.
    const result = await ingestEvents(
      t.db,
      late,
      [event({ at: new Date(Date.now() + 60_000).toISOString() }, "late-stop")],
      { checkArm: false },
    );
    expect(result.accepted).toBe(0);
    expect(result.rejected[0].reason).toMatch(/^experiment late-stop was stopped at /);
  });
});

describe("defence in depth", () => {
  it("when PostgreSQL still refuses rows for their data, rejects those with its reason and stores the rest", async () => {
    await t.db.execute(
      sql.raw(`create function refuse_marked() returns trigger language plpgsql as $$ begin
                 if new.session_id = 'refuse' then raise exception 'session refused by a check' using errcode = '23514'; end if; return new; end $$;
               create trigger refuse_marked before insert on events for each row execute function refuse_marked();`),
    );
    try {
      const batch = Array.from({ length: 1500 }, (_, i) =>
        event({ sessionId: [7, 999, 1000, 1499].includes(i) ? "refuse" : "s" }),
      );
      const expected = [7, 999, 1000, 1499].map((index) => ({
        index,
        reason: "the database refused this event: session refused by a check (SQLSTATE 23514)",
      }));
      expect(await ingestEvents(t.db, live, batch, { checkArm: false, now })).toEqual({
        accepted: 1496,
        duplicates: 0,
        rejected: expected,
      });
      expect(await ingestEvents(t.db, live, batch, { checkArm: false, now })).toEqual({
        accepted: 0,
        duplicates: 1496,
        rejected: expected,
      });
    } finally {
      await t.db.execute(sql`drop trigger refuse_marked on events`);
    }
  });
});
