import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../../db/accounts/users";
import { importFile } from "../../db/import";
import { listSnapshots } from "../../db/snapshots/snapshots";
import { snapshots } from "../../db/schema";
import { createSessionCookie } from "../../test/session-cookie";
import { runAssay } from "../../test/run-cli";

/**
 * The offline page's view toggles (window, stratified bootstrap, conflicts removed): the loader
 * computes the report with them, refuses a bad one with a sentence, and a snapshot frozen from the
 * page records them in its parameters.
 */
let t: TestDatabase;
let cookie = "";
const context = { cspNonce: "", ip: "127.0.0.1" };

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  const files: [Parameters<typeof importFile>[2], string][] = [
    ["subjects", "key,name\nml,ML\nbio,Bio\n"],
    [
      "proposals",
      "external_id,title,subject,date\nP1,One,ml,2024-01-15\nP2,Two,ml,2024-03-01\nP3,Three,bio,2024-05-01\nP4,Four,bio,2025-02-01\n",
    ],
    ["candidates", "external_id,name,profile_date\nC1,Ann,2023-01-01\nC2,Bob,2024-04-01\nC3,Cy,\n"],
    ["systems", "key\nsys\n"],
    [
      "lists",
      "system,proposal,rank,candidate\nsys,P1,1,C1\nsys,P1,2,C2\nsys,P2,1,C2\nsys,P2,2,C1\nsys,P3,1,C3\nsys,P3,2,C2\nsys,P4,1,C1\n",
    ],
    ["gold", "proposal,candidate\nP1,C2\nP2,C1\nP3,C2\nP4,C1\n"],
    ["conflicts", "proposal,candidate,reason\nP1,C1,co-author\n"],
  ];
  for (const [entity, csv] of files)
    expect(await importFile(t.db, "cli", entity, csv, "csv")).toMatchObject({ ok: true });
  const user = await createUser(t.db, "cli", {
    email: "analyst@test.local",
    name: "Analyst",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  cookie = await createSessionCookie(t.db, user.id);
});
afterAll(() => t.drop());

async function offlinePage(query: string) {
  const { loader } = await import("./analyst._index");
  try {
    return await loader({
      request: new Request(`http://localhost/analyst${query}`, { headers: { Cookie: cookie } }),
      params: {},
      context,
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the offline page's view toggles", () => {
  it("compute the report with conflicts removed, a stratified bootstrap and a window", async () => {
    const plain = await (await offlinePage("?B=100")).json();
    expect(plain.report.parameters).toMatchObject({
      excludeConflicts: false,
      stratify: null,
      window: { from: null, to: null, proposals: 4 },
    });
    // P1's list is C1 (conflicted) then C2 (gold): HR@1 misses P1 as returned, hits it without C1.
    expect(plain.report.systems[0].integrity.conflicts[0]).toEqual({
      k: 5,
      slots: 7,
      conflicted: 1,
      share: 1 / 7,
    });
    const page = await offlinePage(
      "?B=100&excludeConflicts=on&stratify=subject&from=2024-01-01&to=2024-12-31",
    );
    const { report, view } = await page.json();
    expect(view).toEqual({
      excludeConflicts: true,
      stratify: "subject",
      from: "2024-01-01",
      to: "2024-12-31",
      maxCommittee: null,
    });
    expect(report.parameters).toMatchObject({
      excludeConflicts: true,
      stratify: "subject",
      window: { from: "2024-01-01", to: "2024-12-31", proposals: 3, undated: 0 },
    });
    expect(report.systems[0].proposals).toBe(3);
    expect(report.systems[0].failures.map((f: { proposal: string }) => f.proposal)).toEqual([]);
    // C2's profile (2024-04-01) is after P1 and P2, both dated before it, in their top 5: two leaky slots; P3 (May) is after it.
    expect(report.systems[0].integrity.leakage[0]).toMatchObject({ k: 5, flagged: 2, proposals: 2 });
  });

  it("refuse a bad window or stratification with a sentence", async () => {
    for (const [query, message] of [
      ["?from=2024-02-30", "The window's start (2024-02-30) is not a real calendar day."],
      ["?to=yesterday", "The window's end must be a date written YYYY-MM-DD."],
      ["?from=2024-06-01&to=2024-01-01", "The window's start must not be after its end."],
      ["?stratify=system", "Stratify by subject, or not at all."],
    ]) {
      const response = await offlinePage(query);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ message });
    }
  });

  it("are recorded in the parameters of a snapshot frozen from the page", async () => {
    const { action } = await import("./analyst.snapshots._index");
    const body = new URLSearchParams({
      kind: "offline",
      B: "100",
      seed: "assay",
      ks: "5,10",
      excludeConflicts: "on",
      stratify: "subject",
      from: "2024-01-01",
      to: "2024-12-31",
    });
    const response = await action({
      request: new Request("http://localhost/analyst/snapshots", {
        method: "POST",
        headers: { Cookie: cookie },
        body,
      }),
      params: {},
      context,
    });
    expect(response.status).toBe(302);
    const [row] = await t.db.select().from(snapshots);
    expect(row.parameters).toEqual({
      kind: "offline",
      ks: [5, 10],
      B: 100,
      seed: "assay",
      excludeConflicts: true,
      stratify: "subject",
      from: "2024-01-01",
      to: "2024-12-31",
    });
    expect((row.result as { parameters: { window: unknown } }).parameters.window).toEqual({
      from: "2024-01-01",
      to: "2024-12-31",
      proposals: 3,
      undated: 0,
    });
    expect(await listSnapshots(t.db)).toHaveLength(1);
    // The CLI with the same settings names the same parameters: the page's snapshot, not a second one.
    const cli = await runAssay(
      [
        "snapshot",
        "create",
        "--kind",
        "offline",
        "--k",
        "5,10",
        "--bootstrap",
        "100",
        "--seed",
        "assay",
        "--exclude-conflicts",
        "--stratify",
        "subject",
        "--from",
        "2024-01-01",
        "--to",
        "2024-12-31",
      ],
      { DATABASE_URL: t.url },
    );
    expect(cli.stdout).toContain(`Snapshot ${row.id} (offline) already frozen`);
    expect(await listSnapshots(t.db)).toHaveLength(1);
  });
});
