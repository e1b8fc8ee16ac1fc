import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { exposures } from "../schema";
import type { ExperimentWithArms } from "./experiments";

/**
 * Events and sessions per arm (as `sqlStreamTotals` counts them from the per-session rows it already
 * read) beside the units exposed to each arm.
 */
export async function armCounts(
  db: DbOrTx,
  experiment: ExperimentWithArms,
  perArm: ReadonlyMap<string, { events: number; sessions: number }>,
) {
  const rows = await db
    .select({ armId: exposures.armId, units: sql<number>`count(*)::int` })
    .from(exposures)
    .where(eq(exposures.experimentId, experiment.id))
    .groupBy(exposures.armId);
  return experiment.arms.map((a) => ({
    arm: a.key,
    events: perArm.get(a.key)?.events ?? 0,
    sessions: perArm.get(a.key)?.sessions ?? 0,
    exposedUnits: rows.find((r) => r.armId === a.id)?.units ?? 0,
  }));
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
  const of = (kind: "proposal" | "candidate") =>
    rows.find((r) => r.kind === kind) ?? { count: 0, examples: [] as string[] };
  return {
    proposals: of("proposal").count,
    candidates: of("candidate").count,
    proposalExamples: of("proposal").examples,
    candidateExamples: of("candidate").examples,
  };
}
