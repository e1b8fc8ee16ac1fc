import { sql } from "drizzle-orm";
import type { Db } from "./client";
import type { ExperimentWithArms } from "./experiments";
import type { StreamTotals, UnitTotals } from "../scripts/metrics/online";

/**
 * The online metrics' inputs aggregated in SQL to one row per session, then per unit, so the app holds
 * O(sessions), not O(events) (DESIGN.md, Runtime). Same rules as scripts/metrics/online.ts: events are
 * unique by id already (the primary key); units seen in more than one arm are excluded; a candidate's
 * rank is its position in the first impression (by at, event_id) of the session that showed it;
 * clicks and final adopt states (after unadopts, by at then event_id) count only for shown candidates.
 */
export async function sessionTotals(db: Db, experiment: ExperimentWithArms) {
  // CTEs carry no row estimates, and a nested loop over them is quadratic: hash joins only, here.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_nestloop = off`);
    // The sorts and hashes of a large experiment fit in memory instead of spilling to disk.
    await tx.execute(sql`set local work_mem = '256MB'`);
    return tx.execute<{ unit: string; arm: string; session_id: string; first_at: string; impressions: number; shown: number; clicked: number; adopted: number; adopted_rank_sum: number; unshown_events: number }>(sql`
    with ev as (
      select event_id, type, at, arm, unit, session_id, candidate_id, items from events where experiment_id = ${experiment.id}
    ), units as (
      select unit, min(arm) as arm from ev group by unit having count(distinct arm) = 1
    ), kept as (
      select ev.* from ev join units using (unit)
    ), shown as (
      select unit, session_id, candidate, min(position) filter (where first_seen) as rank
      from (
        select k.unit, k.session_id, item.candidate, item.position,
          row_number() over (partition by k.unit, k.session_id, item.candidate order by k.at, k.event_id collate "C") = 1 as first_seen
        from kept k, unnest(k.items) with ordinality as item(candidate, position)
        where k.type = 'impression'
      ) x group by unit, session_id, candidate
    ), clicks as (
      select distinct unit, session_id, candidate_id as candidate from kept where type = 'click'
    ), final_state as (
      select distinct on (unit, session_id, candidate_id) unit, session_id, candidate_id as candidate, type
      from kept where type in ('adopt', 'unadopt') order by unit, session_id, candidate_id, at desc, event_id collate "C" desc
    ), sessions as (
      select unit, session_id, min(at) as first_at from kept group by unit, session_id
    ), shown_agg as (
      select unit, session_id, count(*)::int as shown from shown group by unit, session_id
    ), clicked_agg as (
      select c.unit, c.session_id, count(*)::int as clicked from clicks c join shown sh using (unit, session_id, candidate) group by c.unit, c.session_id
    ), adopted_agg as (
      select f.unit, f.session_id, count(*)::int as adopted, sum(sh.rank)::int as rank_sum
      from final_state f join shown sh using (unit, session_id, candidate) where f.type = 'adopt' group by f.unit, f.session_id
    ), impressions as (
      select unit, session_id, count(*)::int as n from kept where type = 'impression' group by unit, session_id
    ), unshown as (
      select k.unit, k.session_id, count(*)::int as n from kept k
      left join shown s on s.unit = k.unit and s.session_id = k.session_id and s.candidate = k.candidate_id
      where k.type <> 'impression' and s.candidate is null group by k.unit, k.session_id
    )
    -- Grouped aggregates joined on (unit, session): hash joins, linear in the events.
    select s.unit, u.arm, s.session_id, s.first_at::text as first_at,
      coalesce(i.n, 0) as impressions, coalesce(sa.shown, 0) as shown, coalesce(ca.clicked, 0) as clicked,
      coalesce(aa.adopted, 0) as adopted, coalesce(aa.rank_sum, 0) as adopted_rank_sum, coalesce(un.n, 0) as unshown_events
    from sessions s join units u using (unit)
    left join impressions i using (unit, session_id)
    left join shown_agg sa using (unit, session_id)
    left join clicked_agg ca using (unit, session_id)
    left join adopted_agg aa using (unit, session_id)
    left join unshown un using (unit, session_id)`);
  });
  const [counts] = await db.execute<{ events: number; units: number; excluded_units: number; excluded_events: number }>(sql`
    with per_unit as (select unit, count(distinct arm) as arms, count(*) as n from events where experiment_id = ${experiment.id} group by unit)
    select (select count(*)::int from events where experiment_id = ${experiment.id}) as events, count(*)::int as units,
      count(*) filter (where arms > 1)::int as excluded_units, coalesce(sum(n) filter (where arms > 1), 0)::int as excluded_events
    from per_unit`);
  return { rows, counts };
}

/** Per-unit totals from the per-session rows, in the shape the report and its bootstrap take. */
export async function sqlStreamTotals(db: Db, experiment: ExperimentWithArms): Promise<StreamTotals & { sessions: { arm: string; firstAt: string; shown: number; clicked: number; adopted: number; adoptedRankSum: number }[] }> {
  const { rows, counts } = await sessionTotals(db, experiment);
  const units = new Map<string, UnitTotals>();
  let withoutImpression = 0;
  let unshown = 0;
  const sessions: { arm: string; firstAt: string; shown: number; clicked: number; adopted: number; adoptedRankSum: number }[] = [];
  for (const r of rows) {
    if (r.impressions === 0) {
      withoutImpression++;
      continue;
    }
    unshown += r.unshown_events;
    let u = units.get(r.unit);
    if (!u) units.set(r.unit, (u = { unit: r.unit, arm: r.arm, sessions: 0, shown: 0, clicked: 0, adopted: 0, adoptedRankSum: 0, successfulSessions: 0 }));
    u.sessions++;
    u.shown += r.shown;
    u.clicked += r.clicked;
    u.adopted += r.adopted;
    u.adoptedRankSum += r.adopted_rank_sum;
    if (r.adopted > 0) u.successfulSessions++;
    sessions.push({ arm: r.arm, firstAt: r.first_at, shown: r.shown, clicked: r.clicked, adopted: r.adopted, adoptedRankSum: r.adopted_rank_sum });
  }
  return {
    units: [...units.values()].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0)),
    excludedUnits: counts.excluded_units,
    allUnits: counts.units,
    events: counts.events,
    uniqueEvents: counts.events,
    quality: { duplicateEvents: 0, sessionsWithoutImpression: withoutImpression, eventsAboutUnshownCandidates: unshown, eventsOfExcludedUnits: counts.excluded_events },
    sessions,
  };
}
