import { sql } from "drizzle-orm";
import type { Db } from "../platform/client";
import { refreshEventSessions } from "./event-sessions";
import type { ExperimentWithArms } from "./experiments";
import {
  addSession,
  emptySums,
  type SessionSums,
  type StreamTotals,
  type UnitTotals,
} from "../../scripts/online/report";
import type { GuardrailSession } from "../../scripts/online/guardrail-sessions";

interface SessionRow {
  /** The convener whose session it is (the day-by-day intervals resample conveners). */
  unit: string;
  arm: string;
  /** The UTC day of the session's first event, YYYY-MM-DD. */
  day: string;
  shown: number;
  clicked: number;
  adopted: number;
  adoptedRankSum: number;
}

/**
 * Per-unit totals in the shape the report and its bootstrap take, from `event_sessions`, one row per
 * session with the rules of scripts/online/report.ts, so a view reads O(sessions) rows and the app
 * holds no events (DESIGN.md, Runtime). Units seen in more than one arm are excluded here, since
 * that spans sessions.
 */
export async function sqlStreamTotals(
  db: Db,
  experiment: ExperimentWithArms,
): Promise<
  StreamTotals & {
    sessions: SessionRow[];
    perArm: Map<string, ArmCounts>;
    guardrailSessions: GuardrailSession[];
    /** The subject of each of `sessions`, in the same order (slices by subject). */
    subjectOfSession: (string | null)[];
  }
> {
  await refreshEventSessions(db, experiment.id);
  return streamTotals(await loadSessions(db, experiment.id));
}

interface ArmCounts {
  events: number;
  sessions: number;
}

/** A row of `event_sessions` with its unit's arm (the first by name) and the count of the unit's arms. */
type StoredSession = {
  unit: string;
  arm: string;
  unit_arms: number;
  arms: string[];
  arm_events: number[];
  events: number;
  day: string;
  impressions: number;
  shown: number;
  clicked: number;
  adopted: number;
  adopted_rank_sum: number;
  unshown_events: number;
  /** The subject of the session's proposal (its key), null when the proposal or its subject is unknown. */
  subject: string | null;
  coi_adopted: number;
  minutes_to_finish: number | null;
};

/**
 * The sessions with their unit's arm, their proposal's subject, and how many adopted candidates have a
 * declared conflict with the proposal (events name proposals and candidates by their external ids).
 */
async function loadSessions(db: Db, experimentId: number) {
  return db.execute<StoredSession>(sql`
    with s as (
      select unit, arms, arm_events, events, first_at, impressions, shown, clicked, adopted, adopted_rank_sum, unshown_events,
        proposal_id, adopted_ids, minutes_to_finish
      from event_sessions where experiment_id = ${experimentId}
    ), units as (
      select s.unit, min(a.arm) as arm, count(distinct a.arm)::int as unit_arms from s, unnest(s.arms) as a(arm) group by s.unit
    )
    select s.unit, u.arm, u.unit_arms, s.arms, s.arm_events, s.events, to_char(s.first_at at time zone 'UTC', 'YYYY-MM-DD') as day, s.impressions, s.shown, s.clicked, s.adopted, s.adopted_rank_sum, s.unshown_events,
      sub.key as subject, s.minutes_to_finish,
      (select count(*)::int from unnest(s.adopted_ids) as a(id)
        join candidates c on c.external_id = a.id
        join conflicts k on k.candidate_id = c.id and k.proposal_id = p.id) as coi_adopted
    from s join units u using (unit)
    left join proposals p on p.external_id = s.proposal_id
    left join subjects sub on sub.id = p.subject_id`);
}

/** Per-unit totals, data quality and per-arm counts of the sessions, by scripts/online/report.ts's rules. */
function streamTotals(rows: Iterable<StoredSession>) {
  const units = new Map<string, UnitTotals>();
  const excludedUnits = new Set<string>();
  const allUnits = new Set<string>();
  const quality = {
    duplicateEvents: 0,
    sessionsWithoutImpression: 0,
    eventsAboutUnshownCandidates: 0,
    eventsOfExcludedUnits: 0,
  };
  let events = 0;
  const sessions: SessionRow[] = [];
  const guardrailSessions: GuardrailSession[] = [];
  const subjectOfSession: (string | null)[] = [];
  // Events and sessions per arm as logged, excluded units included (a session logged in two arms counts in each).
  const perArm = new Map<string, ArmCounts>();
  for (const r of rows) {
    events += r.events;
    r.arms.forEach((arm, i) => {
      const a = perArm.get(arm) ?? { events: 0, sessions: 0 };
      a.events += r.arm_events[i];
      a.sessions++;
      perArm.set(arm, a);
    });
    allUnits.add(r.unit);
    if (r.unit_arms > 1) {
      excludedUnits.add(r.unit);
      quality.eventsOfExcludedUnits += r.events;
      continue;
    }
    if (r.impressions === 0) {
      quality.sessionsWithoutImpression++;
      continue;
    }
    quality.eventsAboutUnshownCandidates += r.unshown_events;
    const session = {
      unit: r.unit,
      arm: r.arm,
      day: r.day,
      shown: r.shown,
      clicked: r.clicked,
      adopted: r.adopted,
      adoptedRankSum: r.adopted_rank_sum,
    };
    let u = units.get(r.unit);
    if (!u) units.set(r.unit, (u = { unit: r.unit, arm: r.arm, ...emptySums() }));
    addSession(u, session);
    sessions.push(session);
    subjectOfSession.push(r.subject);
    guardrailSessions.push({
      unit: r.unit,
      arm: r.arm,
      clicked: r.clicked,
      adopted: r.adopted,
      coiAdopted: r.coi_adopted,
      minutesToFinish: r.minutes_to_finish,
    });
  }
  return {
    units: [...units.values()].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0)),
    excludedUnits: excludedUnits.size,
    allUnits: allUnits.size,
    events,
    // Events are unique by id in the database (the primary key): duplicates never reach it.
    uniqueEvents: events,
    quality,
    sessions,
    perArm,
    guardrailSessions,
    subjectOfSession,
  };
}

/**
 * Each unit's session sums over its sessions of the *other* experiments that began in [from, to): the
 * CUPED pre-period of scripts/online/decide.ts, read from `event_sessions` (those experiments refreshed
 * first). Sessions without an impression are left out, as in the report; arms do not matter.
 */
export async function sqlPrePeriodTotals(
  db: Db,
  experimentId: number,
  from: Date,
  to: Date,
): Promise<Map<string, SessionSums>> {
  const others = await db.execute<{ experiment_id: number }>(sql`
    select distinct experiment_id from events
    where experiment_id <> ${experimentId} and at >= ${from.toISOString()} and at < ${to.toISOString()}`);
  for (const o of others) await refreshEventSessions(db, o.experiment_id);
  const rows = await db.execute<{ [K in keyof SessionSums]: number } & { unit: string }>(sql`
    select unit, count(*)::int as sessions, sum(shown)::int as shown, sum(clicked)::int as clicked,
      sum(adopted)::int as adopted, sum(adopted_rank_sum)::int as "adoptedRankSum",
      (count(*) filter (where adopted > 0))::int as "successfulSessions"
    from event_sessions
    where experiment_id <> ${experimentId} and impressions > 0
      and first_at >= ${from.toISOString()} and first_at < ${to.toISOString()}
    group by unit`);
  return new Map(rows.map(({ unit, ...sums }) => [unit, sums]));
}
