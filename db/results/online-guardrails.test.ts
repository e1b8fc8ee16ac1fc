import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { DEMO_EXPERIMENT, DEMO_GUARDRAILS, seedDemo } from "../../scripts/demo/seed";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { UnitTotalsBuilder } from "../../scripts/online/report";
import { conflictKey } from "../../scripts/online/guardrail-sessions";
import { evaluateGuardrails, guardrailUnits } from "../../scripts/online/guardrails";
import type { OnlineEvent } from "../../scripts/online/events";
import { decideSlices, sliceByProposal } from "../../scripts/online/slices";
import { DEFAULT_DECISION_SETTINGS } from "../../scripts/online/decide";
import { experimentsWithFailingGuardrail, onlineResult } from "./online";

/**
 * Guardrails from the database: the demo experiment's conveners log `finish`, and the per-session table
 * gives each guardrail the same figures as the events read by the CLI's rules with the conflicts table.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 30, candidates: 300, seed: "online-guardrails" });
}, 180_000);
afterAll(() => t.drop());

/** The experiment's events as `assay online` reads them, and the declared conflicts by external ids. */
async function fromEvents() {
  const rows = await t.db.execute<Record<string, string | string[] | null>>(sql`
    select e.event_id, e.type, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, e.arm, e.unit,
      e.session_id, e.proposal_id, e.candidate_id, e.items
    from events e join experiments x on x.id = e.experiment_id where x.key = ${DEMO_EXPERIMENT}`);
  const conflicts = await t.db.execute<{ p: string; c: string }>(sql`
    select p.external_id as p, c.external_id as c from conflicts k
    join proposals p on p.id = k.proposal_id join candidates c on c.id = k.candidate_id`);
  const builder = new UnitTotalsBuilder({
    guardrails: { conflicts: new Set(conflicts.map((k) => conflictKey(k.p, k.c))) },
  });
  for (const r of rows)
    builder.add({
      eventId: r.event_id,
      type: r.type,
      at: r.at,
      experiment: DEMO_EXPERIMENT,
      arm: r.arm,
      unitId: r.unit,
      sessionId: r.session_id,
      proposalId: r.proposal_id,
      ...(r.candidate_id ? { candidateId: r.candidate_id } : {}),
      ...(r.items ? { items: r.items } : {}),
    } as OnlineEvent);
  builder.build();
  return guardrailUnits(builder.guardrailSessions);
}

it("gives the dashboard each guardrail's state, equal to the events' reading, and flags the failing one", async () => {
  const finishes = await t.db.execute(sql`select 1 from events where type = 'finish'`);
  expect(finishes.length).toBeGreaterThan(100);
  const result = await onlineResult(t.db, { experiment: DEMO_EXPERIMENT, B: 200 }, runInProcess);
  expect(result.guardrails.map((g) => g.metric)).toEqual(DEMO_GUARDRAILS.map((g) => g.metric));
  const expected = evaluateGuardrails(await fromEvents(), "A", DEMO_GUARDRAILS);
  expect(result.guardrails).toHaveLength(expected.length);
  result.guardrails.forEach((g, i) => {
    const e = expected[i];
    expect(g.state).toBe(e.state);
    expect(g.control).toBeCloseTo(e.control!, 9);
    expect(g.treatment).toBeCloseTo(e.treatment!, 9);
    if ("ci" in g && "ci" in e) {
      expect(g.ci[0]).toBeCloseTo(e.ci[0], 9);
      expect(g.ci[1]).toBeCloseTo(e.ci[1], 9);
    } else expect("ci" in g).toBe("ci" in e);
  });
  // The challenger's conveners take about a third longer to finish (scripts/demo/sessions.ts): beyond 10%.
  const slower = result.guardrails.find((g) => g.metric === "minutesToFinish")!;
  expect(slower.state).toBe("failing");
  expect("ci" in slower && slower.ci[0]).toBeGreaterThan(0.1);
  expect(await experimentsWithFailingGuardrail(t.db, [DEMO_EXPERIMENT, "no-such"], runInProcess)).toEqual(
    new Set([DEMO_EXPERIMENT]),
  );
}, 180_000);

it("counts an adopted candidate with a declared conflict in the COI share as soon as the conflict exists", async () => {
  const before = (await fromEvents()).reduce((n, u) => n + (u.sums.coiShare?.m ?? 0), 0);
  // Declare a conflict for one adopted candidate of one session that had none.
  const [pick] = await t.db.execute<{ proposal_id: string; candidate: string }>(sql`
    select s.proposal_id, a.id as candidate from event_sessions s, unnest(s.adopted_ids) as a(id)
    where not exists (select 1 from conflicts k join proposals p on p.id = k.proposal_id join candidates c on c.id = k.candidate_id
      where p.external_id = s.proposal_id and c.external_id = a.id)
    limit 1`);
  await t.db.execute(sql`insert into conflicts (proposal_id, candidate_id, reason)
    select p.id, c.id, 'test' from proposals p, candidates c where p.external_id = ${pick.proposal_id} and c.external_id = ${pick.candidate}`);
  const units = await fromEvents();
  const after = units.reduce((n, u) => n + (u.sums.coiShare?.m ?? 0), 0);
  expect(after).toBeGreaterThan(before);
  const result = await onlineResult(t.db, { experiment: DEMO_EXPERIMENT, B: 200 }, runInProcess);
  const coi = result.guardrails.find((g) => g.metric === "coiShare")!;
  const expected = evaluateGuardrails(units, "A", DEMO_GUARDRAILS).find((g) => g.metric === "coiShare")!;
  expect(coi.treatment).toBeCloseTo(expected.treatment!, 12);
  expect(coi.control).toBeCloseTo(expected.control!, 12);
}, 180_000);

it("breaks the result down by the proposals' subjects from the database, as the CLI does from a subjects file", async () => {
  const result = await onlineResult(t.db, { experiment: DEMO_EXPERIMENT, B: 200 }, runInProcess);
  const slices = result.decisions!.slices;
  const subjects = await t.db.execute<{ p: string; s: string }>(sql`
    select p.external_id as p, s.key as s from proposals p join subjects s on s.id = p.subject_id`);
  const events = await t.db.execute<Record<string, string | string[] | null>>(sql`
    select e.event_id, e.type, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, e.arm, e.unit,
      e.session_id, e.proposal_id, e.candidate_id, e.items
    from events e join experiments x on x.id = e.experiment_id where x.key = ${DEMO_EXPERIMENT}`);
  const asEvents = events.map(
    (r) =>
      ({
        eventId: r.event_id,
        type: r.type,
        at: r.at,
        experiment: DEMO_EXPERIMENT,
        arm: r.arm,
        unitId: r.unit,
        sessionId: r.session_id,
        proposalId: r.proposal_id,
        ...(r.candidate_id ? { candidateId: r.candidate_id } : {}),
        ...(r.items ? { items: r.items } : {}),
      }) as OnlineEvent,
  );
  const fromFile = sliceByProposal(asEvents, new Map(subjects.map((r) => [r.p, r.s])));
  const settings = { ...DEFAULT_DECISION_SETTINGS, engine: "frequentist" as const };
  for (const correction of ["holm", "bh"] as const) {
    const want = decideSlices(fromFile, "A", settings, { correction });
    const got = slices[correction];
    expect(got.correction).toBe(correction);
    expect(got.comparisons).toBe(want.comparisons);
    expect(got.slices.map((s) => [s.slice, s.tooFew, s.units])).toEqual(
      want.slices.map((s) => [s.slice, s.tooFew, s.units]),
    );
    got.slices.forEach((s, i) => {
      const w = want.slices[i];
      if (s.tooFew || w.tooFew) return;
      s.decisions.forEach((d, j) => expect(d.adjustedP).toBeCloseTo(w.decisions[j].adjustedP!, 9));
    });
  }
  // Every slice with enough conveners gives 4 comparisons; a small one says why instead.
  const counted = slices.holm.slices.filter((s) => !s.tooFew).length;
  expect(counted).toBeGreaterThan(0);
  expect(slices.holm.comparisons).toBe(4 * counted);
  for (const s of slices.holm.slices) if (s.tooFew) expect(s.reason).toMatch(/too few conveners/);
}, 180_000);
