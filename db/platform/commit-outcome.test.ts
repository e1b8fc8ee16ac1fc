import net from "node:net";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createDb, type Db } from "./client";
import { importFile } from "../import";
import { createExperiment, getExperiment, setExperimentStatus } from "../experiments/experiments";
import { ingestEvents } from "../experiments/events";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { CommitOutcomeUnknown, transactionWithOutcome } from "./commit-outcome";

/**
 * A TCP proxy in front of PostgreSQL that can lose a connection at a chosen moment, as a restart or a
 * network fault does: `afterCommit` lets the COMMIT reach the server and drops its answer; `atInsert`
 * drops the connection when an insert is sent, before anything is committed; `afterCommitThenDown`
 * also refuses every later connection, as a database that does not come back.
 */
function faultyProxy(target: URL) {
  let fault: "none" | "afterCommit" | "afterCommitThenDown" | "atInsert" = "none";
  let down = false;
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    let dropAnswer = false;
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
    upstream.on("data", (chunk) => {
      if (dropAnswer) return close();
      client.write(chunk);
    });
    client.on("data", (chunk) => {
      const text = chunk.toString("latin1");
      if (fault === "atInsert" && /insert into "events"/i.test(text)) {
        fault = "none";
        return close();
      }
      if (fault.startsWith("afterCommit") && /\bcommit\b/i.test(text)) {
        down = fault === "afterCommitThenDown";
        fault = "none";
        dropAnswer = true;
      }
      upstream.write(chunk);
    });
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
      ),
    arm: (next: typeof fault) => {
      fault = next;
      down = false;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let t: TestDatabase;
let proxy: ReturnType<typeof faultyProxy>;
let db: Db;
let end: () => Promise<void>;

beforeAll(async () => {
  t = await createTestDatabase();
  await importFile(t.db, "cli", "systems", "key\nbm25\ndense", "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "restart",
      name: "Restart",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "restart", "running");
  proxy = faultyProxy(new URL(t.url));
  const port = await proxy.listen();
  const viaProxy = createDb(
    Object.assign(new URL(t.url), { hostname: "127.0.0.1", port: String(port) }).toString(),
    { max: 2 },
  );
  db = viaProxy.db;
  end = () => viaProxy.sql.end({ timeout: 1 });
});
afterAll(async () => {
  await end();
  await proxy.close();
  await t.drop();
});

const stored = async (ids: string[]) =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from events where event_id in ${ids}`))[0]
    .n;

function batch(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    eventId: randomUUID(),
    type: "click",
    at: new Date().toISOString(),
    experiment: "restart",
    arm: "A",
    unitId: `u${i}`,
    sessionId: "s",
    proposalId: "p",
    candidateId: "c",
  }));
}

describe("a batch whose connection is lost", () => {
  it("is reported stored when the COMMIT reached the database and only its answer was lost", async () => {
    const experiment = (await getExperiment(t.db, "restart"))!;
    const events = batch(50);
    proxy.arm("afterCommit");
    const result = await ingestEvents(db, experiment, events, { checkArm: false });
    expect(result).toEqual({ accepted: 50, duplicates: 0, rejected: [] });
    expect(await stored(events.map((e) => e.eventId))).toBe(50);
  });

  it("fails, storing nothing, when the connection is lost before the COMMIT", async () => {
    const experiment = (await getExperiment(t.db, "restart"))!;
    const events = batch(50);
    proxy.arm("atInsert");
    const failure = await ingestEvents(db, experiment, events, { checkArm: false }).catch((e) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(CommitOutcomeUnknown);
    expect(await stored(events.map((e) => e.eventId))).toBe(0);
  });

  it("says the outcome is unknown, not that nothing was stored, when the database cannot be asked", async () => {
    const id = randomUUID();
    proxy.arm("afterCommitThenDown");
    const failure = await transactionWithOutcome(
      db,
      (tx) =>
        tx.execute(sql`insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id)
          select ${id}, id, 'click', now(), 'A', 'u', 's', 'p' from experiments where key = 'restart'`),
      { waitMs: 1000 },
    ).catch((e) => e);
    expect(failure).toBeInstanceOf(CommitOutcomeUnknown);
    proxy.arm("none");
    expect(await stored([id])).toBe(1);
  });
});
