import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, setExperimentStatus } from "./experiments";
import { createUser } from "../accounts/users";
import {
  adopt,
  ConvenerError,
  finish,
  myProposals,
  openProfile,
  recordProfileClick,
  openProposal,
  recordImpression,
  reopenProposal,
  unadopt,
} from "./convener";
import { experimentSchema } from "../../scripts/inputs/experiments";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let convener = 0;
let other = 0;

async function eventTypes() {
  return (
    await t.db.execute<{ type: string; arm: string; candidate_id: string | null }>(
      sql`select type, arm, candidate_id from events order by received_at, type`,
    )
  ).map((r) => r.type);
}

/**
 * Every table's rows, as one digest per table: equal before and after means nothing was inserted,
 * updated or deleted anywhere.
 */
async function tableStates() {
  const tables = await t.db.execute<{ name: string }>(
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const states: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await t.db.execute<{ digest: string }>(
      sql`select count(*) || ':' || md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest
          from ${sql.identifier(name)} x`,
    );
    states[name] = row.digest;
  }
  return states;
}

/** A page view as the browser makes it: the GET, then the page's report that it was shown. */
async function show(userId: number, proposal: string) {
  const view = await openProposal(t.db, userId, proposal);
  if (view.view) await recordImpression(t.db, userId, proposal, view.view);
  return view;
}

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  convener = (
    await createUser(t.db, "cli", {
      email: "convener@assay.local",
      name: "Cora",
      roles: ["convener"],
      password: "long-enough-1",
    })
  ).id;
  other = (
    await createUser(t.db, "cli", {
      email: "other@assay.local",
      name: "Otto",
      roles: ["convener"],
      password: "long-enough-1",
    })
  ).id;
  const assigned = await importFile(t.db, "cli", "conveners", fixture("conveners.csv"), "csv");
  expect(assigned).toMatchObject({ ok: true, counts: { added: 2 } });
  await createExperiment(
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
      committeeCap: 3,
    }),
  );
});
afterAll(() => t.drop());

describe("convener workspace", () => {
  it("lists the convener's proposals; without a running experiment there is no list", async () => {
    expect((await myProposals(t.db, convener)).map((p) => p.externalId)).toEqual(["P-100", "P-101"]);
    expect(await myProposals(t.db, other)).toEqual([]);
    expect((await openProposal(t.db, convener, "P-100")).experiment).toBeNull();
    await setExperimentStatus(t.db, "cli", "live", "running");
  });

  it("writes nothing on a GET of the page or a profile: no session, exposure or event until a POST", async () => {
    await openProposal(t.db, convener, "P-100"); // makes the database's view key, once
    const before = await tableStates();
    const first = await openProposal(t.db, convener, "P-100");
    const again = await openProposal(t.db, convener, "P-100");
    const profile = await openProfile(t.db, convener, "P-100", first.list[0].externalId);
    expect(await tableStates()).toEqual(before);
    // The page shows the session its first POST will open, the same on every load.
    expect(first.session).not.toBeNull();
    expect([again.session, again.list]).toEqual([first.session, first.list]);
    expect(profile).toMatchObject({ committee: [], cap: 3 });
    expect(before.convener_sessions.startsWith("0:")).toBe(true);
    expect(before.exposures.startsWith("0:")).toBe(true);
  });

  it("logs nothing on the GET; the page's report opens the session and logs the impression once per view", async () => {
    const first = await openProposal(t.db, convener, "P-100");
    expect(await eventTypes()).toEqual([]);
    expect(first.view).toMatch(/^[0-9a-f-]{36}\./);
    // Not one the server made, or one of another session: refused, nothing logged.
    const [viewId] = first.view!.split(".");
    for (const forged of [`${viewId}.AAAA`, viewId, "x"])
      await expect(recordImpression(t.db, convener, "P-100", forged)).rejects.toMatchObject({ status: 400 });
    await expect(recordImpression(t.db, other, "P-100", first.view!)).rejects.toMatchObject({ status: 403 });
    expect(await eventTypes()).toEqual([]);
    const refused = await tableStates();
    expect([refused.convener_sessions, refused.exposures]).toEqual([
      expect.stringMatching(/^0:/),
      expect.stringMatching(/^0:/),
    ]);
    expect(await recordImpression(t.db, convener, "P-100", first.view!)).toBe(true);
    expect(await recordImpression(t.db, convener, "P-100", first.view!)).toBe(false); // a replay
    expect(await eventTypes()).toEqual(["impression"]);
    // The session opened is the one the page was shown with, and the unit's exposure is stored.
    const opened = await t.db.execute<{ id: string; arm: string }>(
      sql`select s.id, s.arm from convener_sessions s join exposures x on x.unit = s.unit
          join arms a on a.id = x.arm_id and a.key = s.arm`,
    );
    expect(opened).toEqual([{ id: first.session!.id, arm: expect.any(String) }]);
  });

  it("opens a session and logs the impression; a reload is a new impression of the same session", async () => {
    const first = await openProposal(t.db, convener, "P-100");
    await recordImpression(t.db, convener, "P-100", first.view!);
    // A visit is not progress: the proposal stays "to do" until the convener acts.
    expect((await myProposals(t.db, convener)).find((p) => p.externalId === "P-100")!.started).toBe(false);
    expect(first.list.length).toBeGreaterThan(0);
    const again = await show(convener, "P-100");
    expect(again.session).toEqual(first.session);
    // The first is the view of the test above.
    expect(await eventTypes()).toEqual(["impression", "impression", "impression"]);
    const [impression] = await t.db.execute<{ items: string[] }>(sql`select items from events limit 1`);
    expect(impression.items).toEqual(first.list.map((c) => c.externalId));
  });

  it("logs a profile view as a click and adopt/unadopt with the committee change", async () => {
    const { list } = await show(convener, "P-100");
    await recordProfileClick(t.db, convener, "P-100", list[0].externalId);
    await adopt(t.db, convener, "P-100", list[0].externalId);
    await adopt(t.db, convener, "P-100", list[0].externalId); // adopting twice changes nothing
    await unadopt(t.db, convener, "P-100", list[0].externalId);
    expect((await myProposals(t.db, convener)).find((p) => p.externalId === "P-100")!.started).toBe(true);
    expect(await eventTypes()).toEqual([
      "impression",
      "impression",
      "impression",
      "impression",
      "click",
      "adopt",
      "unadopt",
    ]);
    const arms = await t.db.execute<{ arm: string }>(sql`select distinct arm from events`);
    expect(arms).toHaveLength(1);
  });

  it("never exceeds the cap, even with adopts racing in parallel as the first POSTs, which open one session", async () => {
    const { list, view: shown, session } = await openProposal(t.db, convener, "P-101");
    const targets = list.length >= 2 ? list.map((c) => c.externalId) : [];
    const attempts = await Promise.allSettled([
      recordImpression(t.db, convener, "P-101", shown!),
      ...Array.from({ length: 12 }, (_, i) => adopt(t.db, convener, "P-101", targets[i % targets.length])),
    ]);
    const sessions = await t.db.execute<{ id: string }>(
      sql`select s.id from convener_sessions s join proposals p on p.id = s.proposal_id where p.external_id = 'P-101'`,
    );
    expect(sessions).toEqual([{ id: session!.id }]);
    expect(attempts[0]).toEqual({ status: "fulfilled", value: true });
    const view = await show(convener, "P-101");
    expect(view.committee.length).toBeLessThanOrEqual(3);
    expect(view.committee.length).toBe(Math.min(3, targets.length));
    for (const a of attempts)
      if (a.status === "rejected")
        expect((a.reason as ConvenerError).message).toMatch(/committee is full|not in/);
  });

  it("refuses another convener's proposal and candidates outside the list", async () => {
    await expect(openProposal(t.db, other, "P-100")).rejects.toMatchObject({
      status: 403,
      message: "Proposal P-100 is not assigned to you.",
    });
    await expect(adopt(t.db, other, "P-100", "C-1")).rejects.toMatchObject({ status: 403 });
    await expect(adopt(t.db, convener, "P-100", "C-999")).rejects.toMatchObject({
      status: 404,
      message: "Candidate C-999 is not in this proposal's list.",
    });
  });

  it("finishes the session, logging finish (the guardrails read it); further changes need a new session", async () => {
    const before = (await eventTypes()).length;
    await finish(t.db, convener, "P-100");
    expect((await eventTypes()).slice(before)).toEqual(["finish"]);
    await expect(adopt(t.db, convener, "P-100", "C-1")).rejects.toMatchObject({ status: 409 });
    expect((await myProposals(t.db, convener)).find((p) => p.externalId === "P-100")!.finished).toBe(true);
  });

  it("shows a finished committee read-only with its names, logging nothing, until the convener reopens", async () => {
    const before = await show(convener, "P-101");
    const names = before.list.filter((c) => before.committee.includes(c.candidateId));
    const ordered = before.committee.map((id) => names.find((c) => c.candidateId === id)!.name);
    expect(ordered.length).toBeGreaterThan(0);
    await finish(t.db, convener, "P-101");
    const eventsBefore = (await eventTypes()).length;
    const sessionsBefore = (await t.db.execute(sql`select id from convener_sessions`)).length;
    const view = await show(convener, "P-101");
    expect(view.session).toBeNull();
    expect(view.finished!.members.map((m) => m.name)).toEqual(ordered);
    await show(convener, "P-101"); // Back, or a reload, of the finished page
    expect((await eventTypes()).length).toBe(eventsBefore);
    expect((await t.db.execute(sql`select id from convener_sessions`)).length).toBe(sessionsBefore);
    const home = (await myProposals(t.db, convener)).find((p) => p.externalId === "P-101")!;
    expect(home).toMatchObject({ finished: true, committee: ordered.length, members: ordered });
    await expect(adopt(t.db, convener, "P-101", before.list[0].externalId)).rejects.toMatchObject({
      status: 409,
    });
  });

  it("reopens into one new session holding the saved committee, with a new impression", async () => {
    const finishedSession = (
      await t.db.execute<{ id: string }>(
        sql`select id from convener_sessions where status = 'finished' order by finished_at desc limit 1`,
      )
    )[0].id;
    const saved = (await show(convener, "P-101")).finished!.members.map((m) => m.candidateId);
    expect(await reopenProposal(t.db, convener, "P-101")).toEqual({ started: true });
    expect(await reopenProposal(t.db, convener, "P-101")).toEqual({ started: false }); // a double click
    const eventsBefore = (await eventTypes()).length;
    const view = await show(convener, "P-101");
    expect(view.finished).toBeNull();
    expect(view.session!.id).not.toBe(finishedSession);
    expect(view.committee).toEqual(saved);
    // The carried members were adopted (and counted) in the finished session: no new adopt events.
    expect((await eventTypes()).slice(eventsBefore)).toEqual(["impression"]);
    const again = await show(convener, "P-101"); // a reload resumes it, no second session
    expect(again.session).toEqual(view.session);
    expect((await myProposals(t.db, convener)).find((p) => p.externalId === "P-101")).toMatchObject({
      finished: false,
      started: true,
      committee: saved.length,
    });
    await expect(reopenProposal(t.db, other, "P-101")).rejects.toMatchObject({ status: 403 });
  });

  it("gives the profile the committee and cap, so it can offer Adopt or Remove", async () => {
    const { list, committee } = await show(convener, "P-101");
    for (const id of committee)
      await unadopt(t.db, convener, "P-101", list.find((c) => c.candidateId === id)!.externalId);
    await adopt(t.db, convener, "P-101", list[0].externalId);
    const profile = await openProfile(t.db, convener, "P-101", list[0].externalId);
    expect(profile).toMatchObject({ committee: [list[0].candidateId], cap: 3 });
  });

  it("logs nothing for a unit outside coverage, who sees the control system", async () => {
    await setExperimentStatus(t.db, "cli", "live", "stopped");
    await createExperiment(
      t.db,
      "cli",
      experimentSchema.parse({
        key: "none",
        name: "None",
        arms: [
          { key: "A", system: "bm25", weight: 0.5 },
          { key: "B", system: "dense", weight: 0.5 },
        ],
        control: "A",
        coverage: 0,
      }),
    );
    await setExperimentStatus(t.db, "cli", "none", "running");
    const before = (await eventTypes()).length;
    const view = await show(convener, "P-101");
    expect(view.counted).toBe(false);
    expect(view.list.map((c) => c.externalId)).toEqual(["C-4", "C-3"]); // bm25, the control system
    expect((await eventTypes()).length).toBe(before);
  });
});
