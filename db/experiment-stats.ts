import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "./client";
import type { ExperimentWithArms } from "./experiments";
import { refreshEventSessions } from "./event-sessions";

/** Events and sessions per arm (from the per-session table), and exposed units per arm. */
export async function armCounts(db: Db, experiment: ExperimentWithArms) {
  await refreshEventSessions(db, experiment.id);
  const rows = await db.execute<{ arm_id: number; events: number; sessions: number; exposed_units: number }>(sql`
    with per_arm as (
      select a.arm, sum(a.n)::int as events, count(*)::int as sessions
      from event_sessions s, unnest(s.arms, s.arm_events) as a(arm, n) where s.experiment_id = ${experiment.id} group by a.arm
    ), exposed as (
      select arm_id, count(*)::int as units from exposures where experiment_id = ${experiment.id} group by arm_id
    )
    select arms.id as arm_id, coalesce(p.events, 0) as events, coalesce(p.sessions, 0) as sessions, coalesce(x.units, 0) as exposed_units
    from arms left join per_arm p on p.arm = arms.key left join exposed x on x.arm_id = arms.id
    where arms.experiment_id = ${experiment.id}`);
  return experiment.arms.map((a) => {
    const row = rows.find((r) => r.arm_id === a.id);
    return { arm: a.key, events: row?.events ?? 0, sessions: row?.sessions ?? 0, exposedUnits: row?.exposed_units ?? 0 };
  });
}

/**
 * Proposal and candidate ids an experiment's events name that Assay does not know: stored as sent,
 * reported as findings, with a few examples. Read from the id set the events trigger keeps, so it
 * costs O(distinct ids), not O(events), and follows later catalog imports.
 */
export async function unknownIdFindings(db: DbOrTx, experiment: ExperimentWithArms) {
  const rows = await db.execute<{ kind: "proposal" | "candidate"; count: number; examples: string[] }>(sql`
    select i.kind, count(*)::int as count, (array_agg(i.external_id order by i.external_id))[1:5] as examples
    from event_ids i
    left join proposals p on i.kind = 'proposal' and p.external_id = i.external_id
    left join candidates c on i.kind = 'candidate' and c.external_id = i.external_id
    where i.experiment_id = ${experiment.id} and p.id is null and c.id is null
    group by i.kind`);
  const of = (kind: "proposal" | "candidate") => rows.find((r) => r.kind === kind) ?? { count: 0, examples: [] as string[] };
  return { proposals: of("proposal").count, candidates: of("candidate").count, proposalExamples: of("proposal").examples, candidateExamples: of("candidate").examples };
}
