import fs from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createExperiment, getExperiment } from "./experiments";
import { exportEvents, ingestEvents } from "./events";
import { sqlStreamTotals } from "./online-sql";
import { refreshAllEventSessions } from "./event-sessions";
import { unknownIdFindings, armCounts } from "./experiment-stats";
import { cumulativeDailyFromSessions, onlineReport, reportFromTotals } from "../../scripts/online/report";
import { createRng, shuffled } from "../../scripts/lib/random";
import { sql } from "drizzle-orm";
import { experimentSchema } from "../../scripts/inputs/experiments";
import type { OnlineEvent } from "../../scripts/online/events";

// The SQL path (sessions aggregated in the database) must give exactly the report of the event path.
let t: TestDatabase;
let lines: OnlineEvent[];
const later = { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") };
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 30, candidates: 300, seed: "online-sql" });
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "exp-1",
      name: "Reference",
      arms: [
        { key: "A", system: "baseline", weight: 0.5 },
        { key: "B", system: "challenger", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  lines = fs
    .readFileSync(path.join(__dirname, "../../test/fixtures/online-small/events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  await ingestEvents(t.db, (await getExperiment(t.db, "exp-1"))!, lines, later);
});
afterAll(() => t.drop());

async function both(key: string) {
  const experiment = (await getExperiment(t.db, key))!;
  const events: OnlineEvent[] = [];
  for await (const page of exportEvents(t.db, experiment)) events.push(...page);
  const options = { weights: { A: 0.5, B: 0.5 }, control: "A", intervals: true, B: 200, seed: 3 };
  const totals = await sqlStreamTotals(t.db, experiment);
  return {
    viaEvents: onlineReport(events, options),
    viaSql: reportFromTotals(totals, options),
    events,
    totals,
  };
}

it.each(["exp-1", "reviewer-ranker-v2"])(
  "gives the same report for %s as the event-by-event computation",
  async (key) => {
    const { viaEvents, viaSql } = await both(key);
    expect(viaSql).toEqual(viaEvents);
  },
);

it("matches the online-small reference values", async () => {
  const expected = JSON.parse(
    fs.readFileSync(path.join(__dirname, "../../test/fixtures/online-small/expected.json"), "utf8"),
  );
  const { viaSql } = await both("exp-1");
  for (const arm of ["A", "B"]) {
    expect(viaSql.arms[arm]).toMatchObject({
      units: expected.arms[arm].units,
      sessions: expected.arms[arm].sessions,
      shown: expected.arms[arm].shown,
      clicked: expected.arms[arm].clicked,
      adopted: expected.arms[arm].adopted,
    });
    expect(viaSql.arms[arm].meanAdoptedRank).toBeCloseTo(expected.arms[arm].meanAdoptedRank, 12);
  }
});

it("gives the daily cumulative values of the last day equal to the whole report", async () => {
  const { viaSql, totals } = await both("reviewer-ranker-v2");
  const daily = cumulativeDailyFromSessions(totals.sessions);
  expect(daily.at(-1)!.arms.B.adoptionRate).toBeCloseTo(viaSql.arms.B.adoptionRate!, 12);
  expect(daily.at(-1)!.arms.A.ctr).toBeCloseTo(viaSql.arms.A.ctr!, 12);
  expect(daily.length).toBeGreaterThan(1);
});

describe("the per-session table, refreshed from the sessions the events trigger queues", () => {
  it("is right however the events arrive: shuffled, in small batches, two at a time, some sent twice, read while they arrive", async () => {
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key: "exp-2",
        name: "Same events, any order",
        arms: [
          { key: "A", system: "baseline", weight: 0.5 },
          { key: "B", system: "challenger", weight: 0.5 },
        ],
        control: "A",
      }),
    );
    const experiment = (await getExperiment(t.db, "exp-2"))!;
    const rng = createRng("arrival");
    const events = shuffled(lines, rng).map((e) => ({
      ...e,
      eventId: `again-${e.eventId}`,
      experiment: "exp-2",
    }));
    const batches: OnlineEvent[][] = [];
    for (let i = 0; i < events.length;) {
      const size = 1 + Math.floor(rng.next() * 40);
      batches.push(events.slice(i, i + size));
      i += size;
    }
    // Pairs of batches race each other and a reader's refresh: none may lose another's events.
    for (let i = 0; i < batches.length; i += 2)
      await Promise.all([
        ...batches.slice(i, i + 2).map((b) => ingestEvents(t.db, experiment, b, later)),
        sqlStreamTotals(t.db, experiment),
      ]);
    await ingestEvents(t.db, experiment, batches[3], later);
    const { viaSql, viaEvents } = await both("exp-2");
    expect(viaSql).toEqual(viaEvents);
    expect(viaSql).toEqual((await both("exp-1")).viaSql);
  });

  it("holds every stored event once a refresh has run, and leaves nothing queued", async () => {
    await refreshAllEventSessions(t.db);
    const [queued] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from event_sessions_dirty`,
    );
    expect(queued.n).toBe(0);
    const differing = await t.db.execute(sql`
      (select experiment_id, unit, session_id, count(*)::int as n from events group by 1, 2, 3
       except select experiment_id, unit, session_id, events from event_sessions)
      union all
      (select experiment_id, unit, session_id, events from event_sessions
       except select experiment_id, unit, session_id, count(*)::int from events group by 1, 2, 3)`);
    expect(differing).toEqual([]);
  });

  it("counts nothing of a batch whose every event was refused", async () => {
    const experiment = (await getExperiment(t.db, "exp-1"))!;
    const before = await both("exp-1");
    const refused = {
      ...lines.find((e) => e.type === "impression")!,
      eventId: "refused-1",
      sessionId: "a-new-session",
      arm: "Z",
    };
    const result = await ingestEvents(t.db, experiment, [refused], later);
    expect(result.rejected).toHaveLength(1);
    expect((await both("exp-1")).viaSql).toEqual(before.viaSql);
  });

  // exp-1 (online-small) has units and a session logged in two arms; reviewer-ranker-v2 has none.
  it.each(["exp-1", "reviewer-ranker-v2"])(
    "counts events and sessions per arm of %s as the events table does",
    async (key) => {
      const experiment = (await getExperiment(t.db, key))!;
      const expected = await t.db.execute<{ arm: string; events: number; sessions: number }>(sql`
      select arm, count(*)::int as events, count(distinct (unit, session_id))::int as sessions from events where experiment_id = ${experiment.id} group by arm order by arm`);
      const counts = await armCounts(t.db, experiment, (await sqlStreamTotals(t.db, experiment)).perArm);
      expect(counts.map(({ arm, events, sessions }) => ({ arm, events, sessions }))).toEqual(expected);
    },
  );

  it("reports ids the catalog lacks, with examples, and stops once they are known", async () => {
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    expect(await unknownIdFindings(t.db, experiment)).toEqual({
      proposals: 0,
      candidates: 0,
      proposalExamples: [],
      candidateExamples: [],
    });
    const at = "2026-11-02T10:00:00Z";
    const base = { experiment: experiment.key, arm: "A", unitId: "u-unknown", sessionId: "s-unknown", at };
    await ingestEvents(
      t.db,
      experiment,
      [
        {
          ...base,
          eventId: "unknown-1",
          type: "impression",
          proposalId: "NO-SUCH-PROPOSAL",
          items: ["NO-SUCH-CANDIDATE", "ALSO-MISSING"],
        },
        {
          ...base,
          eventId: "unknown-2",
          type: "click",
          proposalId: "NO-SUCH-PROPOSAL",
          candidateId: "NO-SUCH-CANDIDATE",
        },
      ],
      later,
    );
    expect(await unknownIdFindings(t.db, experiment)).toEqual({
      proposals: 1,
      candidates: 2,
      proposalExamples: ["NO-SUCH-PROPOSAL"],
      candidateExamples: ["ALSO-MISSING", "NO-SUCH-CANDIDATE"],
    });
  });
});
