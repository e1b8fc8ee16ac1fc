import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../../db/import";
import {
  createApiKey,
  createExperiment,
  revokeApiKey,
  setExperimentStatus,
  assignUnit,
  getExperiment,
} from "../../db/experiments/experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let key = "";
let events: typeof import("./api.events");
let assignment: typeof import("./api.experiments.$key.assignment");

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  for (const entity of ["subjects", "proposals", "candidates", "systems"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "api",
      name: "API",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "api", "running");
  key = (await createApiKey(t.db, "cli", "api")).key;
  events = await import("./api.events");
  assignment = await import("./api.experiments.$key.assignment");
});
afterAll(() => t.drop());

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/events", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}`, ...headers },
  });
async function call(request: Request) {
  try {
    return await events.action({ request, params: {}, context: { cspNonce: "", ip: "" } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
const stored = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from events`))[0].n;
const click = (unit: string, arm: string) => ({
  eventId: randomUUID(),
  type: "click",
  at: new Date().toISOString(),
  experiment: "api",
  arm,
  unitId: unit,
  sessionId: "s",
  proposalId: "P-100",
  candidateId: "C-1",
});

describe("POST /api/events", () => {
  it.each([
    ["no key", () => post("{}", { Authorization: "" }), 401, /API key/],
    [
      "an unknown key",
      () => post("{}", { Authorization: "Bearer assay_nope" }),
      401,
      /unknown, revoked or expired/,
    ],
    [
      "the wrong content type",
      () => post("{}", { "Content-Type": "text/plain" }),
      415,
      /application\/json`; this request says "text\/plain"/,
    ],
    [
      "a look-alike content type",
      () => post("{}", { "Content-Type": "application/jsonx" }),
      415,
      /this request says "application\/jsonx"/,
    ],
    [
      "a JSON suffix type",
      () => post("{}", { "Content-Type": "application/json-patch+json" }),
      415,
      /application\/json/,
    ],
    [
      "no content type",
      () =>
        new Request("http://localhost/api/events", {
          method: "POST",
          body: new Uint8Array([123, 125]),
          headers: { Authorization: `Bearer ${key}` },
        }),
      415,
      /has no Content-Type/,
    ],
    [
      "a charset other than UTF-8",
      () => post("{}", { "Content-Type": "application/json; charset=latin1" }),
      415,
      /JSON must be sent as UTF-8/,
    ],
    [
      "bytes that are not UTF-8",
      () => post(Buffer.from('{"events": [{"eventId": "sur-\xed\xa0\x80"}]}', "latin1") as unknown as string),
      400,
      /not valid UTF-8/,
    ],
    ["invalid JSON", () => post("{oops"), 400, /not valid JSON/],
    ["a body without events", () => post('{"evts": []}'), 400, /"events" list/],
    [
      "501 events",
      () => post(JSON.stringify({ events: Array.from({ length: 501 }, () => ({})) })),
      413,
      /At most 500 events per request; this one has 501/,
    ],
    [
      "a 2 MB body",
      () => post(JSON.stringify({ events: [{ pad: "x".repeat(2 * 1024 * 1024) }] })),
      413,
      /larger than 1 MB/,
    ],
  ] as const)("answers %s with a clear error and stores nothing", async (_name, request, status, message) => {
    const before = await stored();
    const response = await call(request());
    expect(response.status).toBe(status);
    expect((await response.json()).error).toMatch(message);
    expect(await stored()).toBe(before);
  });

  it("accepts good events, rejects bad ones by index, and counts a retry as duplicates", async () => {
    const experiment = (await getExperiment(t.db, "api"))!;
    const arm = (await assignUnit(t.db, experiment, "conv-1")).arm;
    const good = click("conv-1", arm);
    const body = JSON.stringify({
      events: [
        good,
        { ...click("conv-1", arm), type: 7 },
        { ...click("conv-1", arm), arm: "Z" },
        { eventId: "x" },
      ],
    });
    const response = await call(post(body));
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.accepted).toBe(1);
    expect(result.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3]);
    expect(result.rejected[0].reason).toBe("type must be one of impression, click, adopt, unadopt, finish");
    expect(result.rejected[2].reason).toMatch(/type must be one of/);
    expect(await (await call(post(JSON.stringify({ events: [good] })))).json()).toEqual({
      accepted: 0,
      duplicates: 1,
      rejected: [],
    });
  });

  it.each([
    "application/json; charset=utf-8",
    'Application/JSON;charset="UTF-8"',
    "application/json ; foo=bar",
  ])("takes %j as JSON", async (type) => {
    expect((await call(post('{"events": []}', { "Content-Type": type }))).status).toBe(200);
  });

  it("stores the good events of a batch with a 2025-02-30 event, rejects that one by index, and a retry counts duplicates", async () => {
    const experiment = (await getExperiment(t.db, "api"))!;
    const arm = (await assignUnit(t.db, experiment, "conv-poison")).arm;
    const body = JSON.stringify({
      events: [
        click("conv-poison", arm),
        { ...click("conv-poison", arm), at: "2025-02-30T10:00:00Z" },
        click("conv-poison", arm),
      ],
    });
    const poison = {
      index: 1,
      reason: 'at "2025-02-30T10:00:00Z" is not on the calendar: February 2025 has 28 days',
    };
    const first = await call(post(body));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [poison] });
    expect(await (await call(post(body))).json()).toEqual({ accepted: 0, duplicates: 2, rejected: [poison] });
  });

  it("refuses a revoked key", async () => {
    const revoked = await createApiKey(t.db, "cli", "api");
    const experiment = (await getExperiment(t.db, "api"))!;
    await revokeApiKey(t.db, "cli", experiment.id, revoked.id);
    expect((await call(post('{"events": []}', { Authorization: `Bearer ${revoked.key}` }))).status).toBe(401);
  });
});

describe("GET /api/experiments/:key/assignment", () => {
  const get = async (url: string, k = key) => {
    try {
      return await assignment.loader({
        request: new Request(url, { headers: { "X-Api-Key": k } }),
        params: { key: new URL(url).pathname.split("/")[3] },
        context: { cspNonce: "", ip: "" },
      });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  it("gives the unit's arm and system and keeps it", async () => {
    const first = await (await get("http://localhost/api/experiments/api/assignment?unit=someone")).json();
    expect(first).toMatchObject({ experiment: "api", unit: "someone", counted: true });
    expect(["bm25", "dense"]).toContain(first.system);
    expect(await (await get("http://localhost/api/experiments/api/assignment?unit=someone")).json()).toEqual(
      first,
    );
  });
  it("refuses a missing unit, another experiment's name and a bad key", async () => {
    expect((await get("http://localhost/api/experiments/api/assignment")).status).toBe(400);
    expect((await get("http://localhost/api/experiments/other/assignment?unit=u")).status).toBe(403);
    expect((await get("http://localhost/api/experiments/api/assignment?unit=u", "assay_bad")).status).toBe(
      401,
    );
  });
});
