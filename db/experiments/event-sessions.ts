import { sql } from "drizzle-orm";
import type { Db } from "../platform/client";
import { summarizeSession } from "../../scripts/online/report";

/** Sessions recomputed per transaction: bounds the memory and the time a refresh holds its lock. */
const CHUNK = 1000;

type EventRow = {
  unit: string;
  session_id: string;
  event_id: string;
  type: "impression" | "click" | "adopt" | "unadopt" | "finish";
  proposal_id: string;
  arm: string;
  candidate_id: string | null;
  items: string[] | null;
  ms: number;
};

/**
 * Brings `event_sessions` up to date with every event of the experiment committed before the call:
 * the sessions the events trigger queued (migration 0008) are recomputed from their events with the
 * library's own rules (`summarizeSession`, as `assay online` uses), so SQL and CLI cannot drift.
 * Refreshes of one experiment take turns (an advisory lock). Each chunk takes its queue entries,
 * then reads the events, so an event committed in between is read, and one committed later stays
 * queued for the next refresh. Returns the number of sessions recomputed.
 */
export async function refreshEventSessions(db: Db, experimentId: number): Promise<number> {
  let refreshed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('event_sessions'), ${experimentId})`);
      const keys = await tx.execute<{ unit: string; session_id: string }>(sql`
        select distinct unit, session_id from event_sessions_dirty where experiment_id = ${experimentId} order by unit, session_id limit ${CHUNK}`);
      if (keys.length === 0) return 0;
      const keyJson = JSON.stringify(keys.map((k) => ({ unit: k.unit, session_id: k.session_id })));
      await tx.execute(sql`
        delete from event_sessions_dirty d using jsonb_to_recordset(${keyJson}::jsonb) as k(unit text, session_id text)
        where d.experiment_id = ${experimentId} and d.unit = k.unit and d.session_id = k.session_id`);
      // Each session's events by the index; OFFSET 0 keeps the planner from flattening the lookup
      // into a join over the whole experiment. Rows come grouped by session, in key order.
      const rows = await tx.execute<EventRow>(sql`
        select e.unit, e.session_id, e.event_id, e.type, e.arm, e.proposal_id, e.candidate_id, e.items, (extract(epoch from e.at) * 1000)::float8 as ms
        from jsonb_to_recordset(${keyJson}::jsonb) as k(unit text, session_id text)
        cross join lateral (select * from events e where e.experiment_id = ${experimentId} and e.unit = k.unit and e.session_id = k.session_id offset 0) e`);
      const sessions = [];
      for (let i = 0; i < rows.length;) {
        let j = i + 1;
        while (j < rows.length && rows[j].unit === rows[i].unit && rows[j].session_id === rows[i].session_id)
          j++;
        sessions.push(sessionRow(rows.slice(i, j)));
        i = j;
      }
      if (sessions.length) {
        await tx.execute(sql`
          insert into event_sessions (experiment_id, unit, session_id, arms, arm_events, events, first_at, impressions, shown, clicked, adopted, adopted_rank_sum, unshown_events,
            proposal_id, adopted_ids, minutes_to_finish)
          select ${experimentId}, r.unit, r.session_id, r.arms, r.arm_events, r.events, r.first_at, r.impressions, r.shown, r.clicked, r.adopted, r.adopted_rank_sum, r.unshown_events,
            r.proposal_id, r.adopted_ids, r.minutes_to_finish
          from jsonb_to_recordset(${JSON.stringify(sessions)}::jsonb) as r(unit text, session_id text, arms text[], arm_events integer[], events integer, first_at timestamptz,
            impressions integer, shown integer, clicked integer, adopted integer, adopted_rank_sum integer, unshown_events integer,
            proposal_id text, adopted_ids text[], minutes_to_finish float8)
          on conflict (experiment_id, unit, session_id) do update set
            arms = excluded.arms, arm_events = excluded.arm_events, events = excluded.events, first_at = excluded.first_at,
            impressions = excluded.impressions, shown = excluded.shown, clicked = excluded.clicked, adopted = excluded.adopted,
            adopted_rank_sum = excluded.adopted_rank_sum, unshown_events = excluded.unshown_events,
            proposal_id = excluded.proposal_id, adopted_ids = excluded.adopted_ids, minutes_to_finish = excluded.minutes_to_finish`);
      }
      return keys.length;
    });
    refreshed += n;
    if (n < CHUNK) return refreshed;
  }
}

/** One session's row of `event_sessions` from its events. */
function sessionRow(events: EventRow[]) {
  // (at, eventId) order, byte order for ids as the CLI compares them.
  events.sort((a, b) => a.ms - b.ms || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  const perArm = new Map<string, number>();
  for (const e of events) perArm.set(e.arm, (perArm.get(e.arm) ?? 0) + 1);
  const arms = [...perArm.keys()].sort();
  const s = summarizeSession(
    events.map((e) => ({
      type: e.type,
      arm: e.arm,
      candidateId: e.candidate_id ?? undefined,
      items: e.items ?? undefined,
    })),
    events.map((e) => e.ms),
  );
  return {
    unit: events[0].unit,
    session_id: events[0].session_id,
    arms,
    arm_events: arms.map((a) => perArm.get(a)!),
    events: events.length,
    first_at: new Date(events[0].ms).toISOString(),
    impressions: s.impressions,
    shown: s.shown,
    clicked: s.clicked,
    adopted: s.adopted,
    adopted_rank_sum: s.adoptedRankSum,
    unshown_events: s.unshownEvents,
    proposal_id: events[0].proposal_id,
    adopted_ids: s.adoptedIds,
    minutes_to_finish: s.minutesToFinish,
  };
}

/** Refreshes every experiment with queued sessions: the server does it now and then, so views find little to do. */
export async function refreshAllEventSessions(db: Db): Promise<number> {
  const queued = await db.execute<{ experiment_id: number }>(
    sql`select distinct experiment_id from event_sessions_dirty`,
  );
  let refreshed = 0;
  for (const { experiment_id } of queued) refreshed += await refreshEventSessions(db, experiment_id);
  return refreshed;
}
