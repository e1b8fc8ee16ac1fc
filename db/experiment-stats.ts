import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "./client";
import { events, exposures } from "./schema";
import type { ExperimentWithArms } from "./experiments";

/** Events and exposed units per arm, counted in SQL. */
export async function armCounts(db: DbOrTx, experiment: ExperimentWithArms) {
  const eventRows = await db
    .select({ arm: events.arm, events: sql<number>`count(*)::int`, sessions: sql<number>`count(distinct (${events.unit}, ${events.sessionId}))::int` })
    .from(events)
    .where(eq(events.experimentId, experiment.id))
    .groupBy(events.arm);
  const exposureRows = await db
    .select({ armId: exposures.armId, units: sql<number>`count(*)::int` })
    .from(exposures)
    .where(eq(exposures.experimentId, experiment.id))
    .groupBy(exposures.armId);
  return experiment.arms.map((a) => ({
    arm: a.key,
    events: eventRows.find((r) => r.arm === a.key)?.events ?? 0,
    sessions: eventRows.find((r) => r.arm === a.key)?.sessions ?? 0,
    exposedUnits: exposureRows.find((r) => r.armId === a.id)?.units ?? 0,
  }));
}

/** Events naming proposals or candidates Assay does not know: stored as sent, reported as findings. */
export async function unknownIdFindings(db: DbOrTx, experiment: ExperimentWithArms) {
  const [row] = await db.execute<{ proposals: number; candidates: number; events: number }>(sql`
    select
      count(distinct e.proposal_id) filter (where p.id is null)::int as proposals,
      count(distinct e.candidate_id) filter (where e.candidate_id is not null and c.id is null)::int as candidates,
      count(*) filter (where p.id is null or (e.candidate_id is not null and c.id is null))::int as events
    from events e
    left join proposals p on p.external_id = e.proposal_id
    left join candidates c on c.external_id = e.candidate_id
    where e.experiment_id = ${experiment.id}`);
  return row;
}
