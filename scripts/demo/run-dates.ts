import { sql } from "drizzle-orm";
import type { Db } from "../../db/platform/client";

/**
 * Dates a seeded experiment as it ran, not as it was loaded: started at `start` (before its first
 * simulated event) and, if stopped, stopped at its last event. Starting and stopping stamp now(), which on
 * a demo seeded weeks after its simulated events would put the start after every event: CUPED's
 * pre-period would then end at the seeding and the daily charts would begin before the experiment.
 */
export async function dateDemoExperiment(db: Db, key: string, start: string) {
  await db.execute(sql`update experiments e set started_at = ${start}::timestamptz,
    stopped_at = case when e.stopped_at is null then null
      else (select max(v.at) from events v where v.experiment_id = e.id) end
    where e.key = ${key}`);
}
