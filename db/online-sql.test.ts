import fs from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../test/database";
import { seedDemo } from "./seed";
import { createExperiment, getExperiment } from "./experiments";
import { exportEvents, ingestEvents } from "./events";
import { sqlStreamTotals } from "./online-sql";
import { cumulativeDailyFromSessions, onlineReport, reportFromTotals } from "../scripts/metrics/online";
import { experimentSchema } from "../app/schemas/experiments";
import type { OnlineEvent } from "../scripts/metrics/events";

// The SQL path (sessions aggregated in the database) must give exactly the report of the event path.
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 30, candidates: 300, seed: "online-sql" });
  await createExperiment(t.db, experimentSchema.parse({ key: "exp-1", name: "Reference", arms: [{ key: "A", system: "baseline", weight: 0.5 }, { key: "B", system: "challenger", weight: 0.5 }], control: "A" }));
  const lines = fs.readFileSync(path.join(__dirname, "../test/fixtures/online-small/events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  await ingestEvents(t.db, (await getExperiment(t.db, "exp-1"))!, lines, { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") });
});
afterAll(() => t.drop());

async function both(key: string) {
  const experiment = (await getExperiment(t.db, key))!;
  const events: OnlineEvent[] = [];
  for await (const page of exportEvents(t.db, experiment)) events.push(...page);
  const options = { weights: { A: 0.5, B: 0.5 }, control: "A", intervals: true, B: 200, seed: 3 };
  const totals = await sqlStreamTotals(t.db, experiment);
  return { viaEvents: onlineReport(events, options), viaSql: reportFromTotals(totals, options), events, totals };
}

it.each(["exp-1", "reviewer-ranker-v2"])("gives the same report for %s as the event-by-event computation", async (key) => {
  const { viaEvents, viaSql } = await both(key);
  expect(viaSql).toEqual(viaEvents);
});

it("matches the online-small reference values", async () => {
  const expected = JSON.parse(fs.readFileSync(path.join(__dirname, "../test/fixtures/online-small/expected.json"), "utf8"));
  const { viaSql } = await both("exp-1");
  for (const arm of ["A", "B"]) {
    expect(viaSql.arms[arm]).toMatchObject({ units: expected.arms[arm].units, sessions: expected.arms[arm].sessions, shown: expected.arms[arm].shown, clicked: expected.arms[arm].clicked, adopted: expected.arms[arm].adopted });
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
