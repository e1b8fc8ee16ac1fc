import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../../test/database";
import { importFile } from "../../../db/import";
import { createExperiment, setExperimentStatus } from "../../../db/experiments/experiments";
import { experimentSchema } from "../../inputs/experiments";
import { onlineFromFile } from "../../io/online-files";
import { runAssay } from "../../../test/run-cli";

/** Bad events in a file are reported by `assay events import` and `assay online` with their line numbers. */
let t: TestDatabase;
let dir = "";

beforeAll(async () => {
  t = await createTestDatabase();
  await importFile(t.db, "cli", "systems", "key\nbm25\ndense", "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "hist",
      name: "History",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-events-"));
});
afterAll(async () => {
  await t.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const assay = (...args: string[]) => runAssay(args, { DATABASE_URL: t.url, ASSAY_DATA_DIR: dir });

const line = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    eventId: id,
    type: "click",
    at: "2025-03-01T10:00:00Z",
    experiment: "hist",
    arm: "A",
    unitId: "u",
    sessionId: "s",
    proposalId: "p",
    candidateId: "c",
    ...extra,
  });
// JSON.stringify writes a lone surrogate as the escape \ud800, as a sender's file would carry it.
const lines = [
  line("ok-1"),
  line("poison", { at: "2025-02-30T10:00:00Z" }),
  "",
  line("sur-\ud800"),
  line("sur-\udbff"),
  line("nul", { sessionId: "s\u0000" }),
  line("local", { at: "2025-03-01T10:00:00" }),
  line("ok-2", { at: "2025-03-01T11:00:00.5+01:00" }),
];
const expected = [
  ':2: at "2025-02-30T10:00:00Z" is not on the calendar: February 2025 has 28 days',
  ":4: eventId contains a lone UTF-16 surrogate",
  ":5: eventId contains a lone UTF-16 surrogate",
  ":6: sessionId contains a NUL character",
  ':7: at "2025-03-01T10:00:00" has no UTC offset',
];

describe("bad event lines", () => {
  it("assay events import stores the good lines and names each bad one by its line", async () => {
    const file = path.join(dir, "events.jsonl");
    fs.writeFileSync(file, lines.join("\n"));
    const { code, stdout, stderr } = await assay("events", "import", file, "--experiment", "hist");
    expect(code).toBe(1);
    expect(stdout).toContain("2 events stored, 0 duplicates, 5 rejected");
    expect(stderr).toContain(
      "assay: 5 events were rejected (reasons above, by line); the others were stored.",
    );
    const reported = stderr.split("\n").filter((l) => l.startsWith(file));
    expect(reported).toHaveLength(5);
    expected.forEach((text, i) => expect(reported[i]).toContain(`${file}${text}`));
    const stored = await t.db.execute<{ event_id: string }>(
      sql`select event_id from events order by event_id`,
    );
    expect(stored.map((r) => r.event_id)).toEqual(["ok-1", "ok-2"]);
  });

  it("assay events import refuses a file with bytes that are not UTF-8, naming the line", async () => {
    const file = path.join(dir, "latin1.jsonl");
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${line("fine")}\n`), Buffer.from(line("caf\u00e9"), "latin1")]),
    );
    const { code, stderr } = await assay("events", "import", file, "--experiment", "hist");
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:2: is not valid UTF-8`);
    expect(stderr).toContain("nothing was imported");
  });

  it("assay online reports the same lines, on one thread and on two", async () => {
    const file = path.join(dir, "online.jsonl");
    fs.writeFileSync(file, lines.join("\n"));
    for (const threads of [1, 2]) {
      const result = await onlineFromFile(file, { threads, parallelBytes: 0 });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.errors.map((e) => e.line)).toEqual([2, 4, 5, 6, 7]);
        result.errors.forEach((e, i) => expect(`:${e.line}: ${e.message}`).toContain(expected[i]));
      }
    }
  });
});

describe("events from before the start", () => {
  it("are refused by line once the experiment has started, and kept and counted with --allow-before-start", async () => {
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key: "started",
        name: "Started",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
      }),
    );
    await setExperimentStatus(t.db, "cli", "started", "running");
    const [{ started_at: startedAt }] = await t.db.execute<{ started_at: string }>(
      sql`select started_at::text from experiments where key = 'started'`,
    );
    const start = Date.parse(startedAt.replace(" ", "T").replace(/\+00$/, "Z"));
    const at = (ms: number) => new Date(ms).toISOString();
    const file = path.join(dir, "early.jsonl");
    fs.writeFileSync(
      file,
      [
        line("on-time", { experiment: "started", at: at(start + 1000) }),
        line("within-skew", { experiment: "started", at: at(start - 4 * 60_000) }),
        line("early", { experiment: "started", at: at(start - 6 * 60_000) }),
        line("years-early", { experiment: "started", at: "2020-01-01T00:00:00Z" }),
      ].join("\n"),
    );
    const refused = await assay("events", "import", file, "--experiment", "started");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("2 events stored, 0 duplicates, 2 rejected");
    for (const n of [3, 4])
      expect(refused.stderr).toContain(
        `${file}:${n}: at is more than 5 minutes before experiment started started (`,
      );
    expect(refused.stderr).toContain("import with --allow-before-start to keep such events");

    const allowed = await assay("events", "import", file, "--experiment", "started", "--allow-before-start");
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("2 events stored, 2 duplicates, 0 rejected");
    expect(allowed.stdout).toContain(
      "2 of the events kept are dated more than 5 minutes before the experiment's start (--allow-before-start).",
    );
    const stored = await t.db.execute<{ event_id: string }>(
      sql`select e.event_id from events e join experiments x on x.id = e.experiment_id where x.key = 'started' order by 1`,
    );
    expect(stored.map((r) => r.event_id)).toEqual(["early", "on-time", "within-skew", "years-early"]);
  });
});
