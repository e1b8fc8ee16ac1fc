import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, getExperiment, type ExperimentWithArms } from "./experiments";
import { ingestEvents } from "./events";
import { refreshEventSessions } from "./event-sessions";
import { clickPageLine, forEachClickSession } from "./click-sessions";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { parseJsonl } from "../../scripts/io/click-log-parse";
import type { RawSession } from "../../scripts/clicks/log";
import { DEMO_EXPERIMENT, seedDemo } from "../../scripts/demo/seed";

const exec = promisify(execFile);
const root = path.resolve(__dirname, "../..");
let t: TestDatabase;
let dir = "";
let hand: ExperimentWithArms;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-clicks-export-"));
  await seedDemo(t.db, { proposals: 20, candidates: 300, listLength: 20 });
  await importFile(t.db, "cli", "systems", "key\nbm25-hand\ndense-hand", "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "hand",
      name: "By hand",
      arms: [
        { key: "A", system: "bm25-hand", weight: 0.5 },
        { key: "B", system: "dense-hand", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  hand = (await getExperiment(t.db, "hand"))!;
  let n = 0;
  const ev = (
    type: string,
    unitId: string,
    sessionId: string,
    minute: number,
    extra: Record<string, unknown>,
  ) => ({
    eventId: `e${++n}`,
    type,
    at: `2025-03-01T10:${String(minute).padStart(2, "0")}:00Z`,
    experiment: "hand",
    arm: "A",
    unitId,
    sessionId,
    proposalId: "p1",
    ...extra,
  });
  const click = (unit: string, session: string, minute: number, candidateId: string) =>
    ev("click", unit, session, minute, { candidateId });
  const batch = [
    // u1/s1: clicks on c2 (twice, under two ids) and on x, which the session never showed.
    ev("impression", "u1", "s1", 0, { items: ["c1", "c2", "c3"] }),
    click("u1", "s1", 1, "c2"),
    click("u1", "s1", 2, "c2"),
    click("u1", "s1", 3, "x"),
    // u1/s2: two impressions; the first (by time, though logged second) is the session's page.
    ev("impression", "u1", "s2", 5, { items: ["c9", "c1"], proposalId: "p2" }),
    ev("impression", "u1", "s2", 4, { items: ["c3", "c4", "c5"], proposalId: "p2" }),
    click("u1", "s2", 6, "c5"),
    click("u1", "s2", 7, "c9"),
    // u2/s1: the same session id under another unit is another session; adopts are not clicks.
    ev("impression", "u2", "s1", 0, { items: ["c7", "c8"] }),
    ev("adopt", "u2", "s1", 1, { candidateId: "c7" }),
    // u3/s1: no impression, so no page.
    click("u3", "s1", 0, "c1"),
  ];
  const first = await ingestEvents(t.db, hand, batch, { checkArm: false });
  expect(first.rejected).toEqual([]);
  // The same click sent again (a retry) is stored once.
  const retry = await ingestEvents(t.db, hand, [{ ...batch[1] }], { checkArm: false });
  expect(retry.duplicates).toBe(1);
});
afterAll(async () => {
  await t?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function exportOf(experimentId: number, maxRank = 10) {
  const pages: RawSession[] = [];
  const counts = await forEachClickSession(t.sql, experimentId, maxRank, (p) => void pages.push(p));
  return { counts, text: pages.map(clickPageLine).join("\n") + "\n" };
}

async function assay(...args: string[]) {
  const env = { ...process.env, DATABASE_URL: t.url, ASSAY_DATA_DIR: dir };
  try {
    const { stdout, stderr } = await exec(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/cli/assay.ts"), ...args],
      { cwd: root, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("click sessions of an experiment", () => {
  it("writes each session's first impression with its clicks, ignoring unshown and repeated clicks", async () => {
    const { counts, text } = await exportOf(hand.id);
    expect(counts).toEqual({ sessions: 3, withoutImpression: 1 });
    const sessions = parseJsonl(text, "export");
    expect(sessions.map(({ time: _, ...s }) => s)).toEqual([
      { id: "u1/s1", query: "p1", results: ["c1", "c2", "c3"], clicks: [0, 1, 0], task: "u1/p1" },
      { id: "u1/s2", query: "p2", results: ["c3", "c4", "c5"], clicks: [0, 0, 1], task: "u1/p2" },
      { id: "u2/s1", query: "p1", results: ["c7", "c8"], clicks: [0, 0], task: "u2/p1" },
    ]);
    // Each page carries when it started, so a task's list views are in time order (TCM).
    expect(sessions.every((s) => Number.isFinite(s.time))).toBe(true);
  });

  it("cuts each page at the maximum rank, dropping clicks below it", async () => {
    const { text } = await exportOf(hand.id, 2);
    expect(parseJsonl(text, "export").map((s) => [s.results, s.clicks])).toEqual([
      [
        ["c1", "c2"],
        [0, 1],
      ],
      [
        ["c3", "c4"],
        [0, 0],
      ],
      [
        ["c7", "c8"],
        [0, 0],
      ],
    ]);
  });

  it("agrees with the online metrics' sessions on the demo experiment", async () => {
    const demo = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
    await refreshEventSessions(t.db, demo.id);
    const rows = await t.sql<{ id: string; impressions: number; shown: number; clicked: number }[]>`
      select unit || '/' || session_id as id, impressions, shown, clicked from event_sessions where experiment_id = ${demo.id}`;
    const { counts, text } = await exportOf(demo.id, 255);
    const pages = parseJsonl(text, "export");
    expect(counts.sessions).toBe(rows.filter((r) => r.impressions > 0).length);
    expect(counts.withoutImpression).toBe(rows.filter((r) => r.impressions === 0).length);
    expect(pages.reduce((n, p) => n + p.clicks.reduce((a, b) => a + b, 0), 0)).toBeGreaterThan(0);
    // With one impression, the page's clicks are exactly clicked(s) and its results shown(s).
    const byId = new Map(pages.map((p) => [p.id, p]));
    const single = rows.filter((r) => r.impressions === 1);
    expect(single.length).toBeGreaterThan(0);
    for (const r of single) {
      const page = byId.get(r.id)!;
      expect([page.results.length, page.clicks.reduce((a, b) => a + b, 0)]).toEqual([r.shown, r.clicked]);
    }
  });

  it("assay clicks export writes the JSONL that assay clicks --log fits", async () => {
    const out = path.join(dir, "demo.jsonl");
    const exported = await assay("clicks", "export", "--experiment", DEMO_EXPERIMENT, "--out", out);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe("");
    expect(exported.stderr).toMatch(/^Exported \d+ sessions of reviewer-ranker-v2 to .*demo\.jsonl/m);
    const pages = parseJsonl(fs.readFileSync(out, "utf8"), out);
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.every((p) => p.results.length <= 10)).toBe(true);
    const fitted = await assay(
      "clicks",
      "--log",
      out,
      "--test-share",
      "0.25",
      "--seed",
      "1",
      "--model",
      "PBM",
      "--model",
      "DBN",
      "--iterations",
      "5",
      "--json",
    );
    expect(fitted.code).toBe(0);
    const report = JSON.parse(fitted.stdout);
    expect(Object.keys(report.models)).toEqual(["PBM", "DBN"]);
    expect(report.train.sessions + report.test.sessions + (report.test.dropped ?? 0)).toBe(pages.length);
    expect(report.models.PBM.logLikelihood).toBeLessThan(0);
  });

  it("assay clicks export writes to stdout, honours --max-rank and refuses an unknown experiment", async () => {
    const ok = await assay("clicks", "export", "--experiment", "hand", "--max-rank", "2");
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain("Exported 3 sessions of hand; 1 without an impression skipped.");
    expect(parseJsonl(ok.stdout, "stdout").map((s) => s.results)).toEqual([
      ["c1", "c2"],
      ["c3", "c4"],
      ["c7", "c8"],
    ]);
    const unknown = await assay("clicks", "export", "--experiment", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe("assay: There is no experiment nope.");
    expect(unknown.stdout).toBe("");
  });
});
