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
