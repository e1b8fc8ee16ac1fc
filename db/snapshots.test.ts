import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test/database";
import { seedDemo } from "./seed";
import { computeResult, createSnapshot, dataWindow, getSnapshot, snapshotCsv, snapshotDocument } from "./snapshots";
import { canonicalJson, sha256 } from "../scripts/lib/canonical";
import { getExperiment } from "./experiments";
import { exportEvents } from "./events";
import { onlineReport } from "../scripts/metrics/online";
import type { OnlineEvent } from "../scripts/metrics/events";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "snapshot-test" });
});
afterAll(() => t.drop());

describe("snapshots", () => {
  it("recomputing with the same parameters on unchanged data gives the same sha256", async () => {
    const first = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 200, seed: "s" });
    const again = await createSnapshot(t.db, "cli", { kind: "offline", ks: [5, 10], B: 200, seed: "s" });
    expect(again.sha256).toBe(first.sha256);
    expect(first.sha256).toBe(sha256(canonicalJson(first.result)));
    const other = await computeResult(t.db, { kind: "offline", ks: [5, 10], B: 200, seed: "another" });
    expect(sha256(canonicalJson(other.result))).not.toBe(first.sha256);
  });

  it("is immutable: the database refuses updates, deletes and truncation", async () => {
    const s = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100 });
    // drizzle wraps the database's error; its own message is the cause's.
    const refusal = (query: Promise<unknown>) => query.then(() => "accepted", (error: Error & { cause?: Error }) => error.cause?.message ?? error.message);
    expect(await refusal(t.db.execute(sql`update snapshots set sha256 = 'x' where id = ${s.id}`))).toBe(`snapshots are immutable: snapshot ${s.id} cannot be changed or deleted`);
    expect(await refusal(t.db.execute(sql`delete from snapshots where id = ${s.id}`))).toBe(`snapshots are immutable: snapshot ${s.id} cannot be changed or deleted`);
    expect(await refusal(t.db.execute(sql`truncate snapshots`))).toBe("snapshots are immutable: the table cannot be truncated");
    expect((await getSnapshot(t.db, s.id)).sha256).toBe(s.sha256);
  });

  it("freezes online and expert results too, and exports them as assay.snapshot/v1 JSON and CSV", async () => {
    const online = await createSnapshot(t.db, "cli", { kind: "online", experiment: "reviewer-ranker-v2", B: 100 });
    const [{ id: campaign }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
    const expert = await createSnapshot(t.db, "cli", { kind: "expert", campaign, B: 100 });
    const doc = snapshotDocument(online);
    expect(doc).toMatchObject({ schema: "assay.snapshot/v1", kind: "online", sha256: online.sha256, parameters: { experiment: "reviewer-ranker-v2", B: 100 } });
    expect(snapshotCsv(online).split("\r\n")[0]).toBe("system_or_arm,group,measure,value,ci_lower,ci_upper");
    expect(snapshotCsv(online)).toMatch(/\r\nB,vs A,ctr difference,/);
    expect(snapshotCsv(expert)).toMatch(/\r\nchallenger,overall,nDCG@10,0\.\d+/);
    await expect(createSnapshot(t.db, "cli", { kind: "online", experiment: "nope" })).rejects.toMatchObject({ status: 404 });
    // The frozen online result is `assay online` on the stored events, plus the daily series its charts need.
    const experiment = (await getExperiment(t.db, "reviewer-ranker-v2"))!;
    const events: OnlineEvent[] = [];
    for await (const page of exportEvents(t.db, experiment)) events.push(...page);
    const { daily, experiment: named, ...report } = online.result as Record<string, unknown>;
    expect(named).toEqual({ key: experiment.key, name: experiment.name });
    expect(report).toEqual(JSON.parse(canonicalJson(onlineReport(events, { weights: { A: 0.5, B: 0.5 }, control: "A", intervals: true, B: 100, seed: "assay" }))));
    expect((daily as unknown[]).length).toBeGreaterThan(1);
  });

  it("records the data window, which moves when data changes", async () => {
    const before = await dataWindow(t.db);
    await t.db.execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id)
      select 'new-event', id, 'click', now(), 'A', 'u', 's', 'p', 'c' from experiments limit 1`);
    const after = await dataWindow(t.db);
    expect(after.events).toBe(before.events + 1);
    expect(after.latestEvent).not.toBe(before.latestEvent);
  });
});
