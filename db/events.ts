import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client";
import { events, exposures } from "./schema";
import { hashedArmIndex, type ExperimentWithArms } from "./experiments";
import { validateEvent, type OnlineEvent } from "../scripts/metrics/events";

export const MAX_FUTURE_MS = 5 * 60 * 1000;

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; reason: string }[];
}

/**
 * Stores a batch of events for one experiment, exactly once: the sender's eventId is the primary key
 * and the insert skips ids already stored (a retried event counts as a duplicate, never twice). The
 * whole batch is one transaction, so a failure stores nothing and the sender can retry it all.
 *
 * Rejected, with a reason, and not stored: an invalid event, another experiment, an unknown arm, a
 * time more than 5 minutes in the future, and (`checkArm`, for live logging) an arm that is not the
 * unit's: its stored exposure, or for a unit new to the experiment the arm GrowthBook's hash gives,
 * which is then stored. Historical imports keep each event's arm as logged (`checkArm: false`).
 * Proposal and candidate ids are kept as sent; ids Assay does not know are data-quality findings.
 */
export async function ingestEvents(db: Db, experiment: ExperimentWithArms, batch: readonly unknown[], options: { checkArm: boolean; now?: number }): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  const rejected: { index: number; reason: string }[] = [];
  const valid: { index: number; event: OnlineEvent }[] = [];
  const armKeys = new Set(experiment.arms.map((a) => a.key));
  batch.forEach((raw, index) => {
    const result = validateEvent(raw);
    if (!result.ok) return rejected.push({ index, reason: result.problems.join("; ") });
    const e = result.event;
    if (e.experiment !== experiment.key) return rejected.push({ index, reason: `unknown experiment ${e.experiment} (this key is for ${experiment.key})` });
    if (!armKeys.has(e.arm)) return rejected.push({ index, reason: `unknown arm ${e.arm} (arms: ${[...armKeys].join(", ")})` });
    if (Date.parse(e.at) > now + MAX_FUTURE_MS) return rejected.push({ index, reason: "at is more than 5 minutes in the future" });
    valid.push({ index, event: e });
  });

  return db.transaction(async (tx) => {
    let keep = valid;
    if (options.checkArm && valid.length > 0) {
      const units = [...new Set(valid.map((v) => v.event.unitId))];
      const stored = await tx
        .select({ unit: exposures.unit, armId: exposures.armId })
        .from(exposures)
        .where(and(eq(exposures.experimentId, experiment.id), inArray(exposures.unit, units)));
      const armOf = new Map(stored.map((s) => [s.unit, experiment.arms.find((a) => a.id === s.armId)!.key]));
      const newExposures = new Map<string, number>();
      for (const unit of units) {
        if (armOf.has(unit)) continue;
        const index = hashedArmIndex(experiment, unit);
        if (index >= 0) {
          armOf.set(unit, experiment.arms[index].key);
          newExposures.set(unit, experiment.arms[index].id);
        }
      }
      keep = [];
      for (const v of valid) {
        const arm = armOf.get(v.event.unitId);
        if (arm === undefined) rejected.push({ index: v.index, reason: `unit ${v.event.unitId} is outside the experiment's coverage` });
        else if (arm !== v.event.arm) rejected.push({ index: v.index, reason: `unit ${v.event.unitId} is in arm ${arm}, not ${v.event.arm}` });
        else keep.push(v);
      }
      const used = new Set(keep.map((v) => v.event.unitId));
      // Sorted, so concurrent batches take the unique-index locks in one order and cannot deadlock.
      const toStore = [...newExposures].filter(([unit]) => used.has(unit)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (toStore.length) await tx.insert(exposures).values(toStore.map(([unit, armId]) => ({ experimentId: experiment.id, unit, armId }))).onConflictDoNothing();
    }
    let accepted = 0;
    for (let i = 0; i < keep.length; i += 1000) {
      const inserted = await tx
        .insert(events)
        .values(
          keep.slice(i, i + 1000).map(({ event: e }) => ({
            eventId: e.eventId,
            experimentId: experiment.id,
            type: e.type,
            at: e.at,
            arm: e.arm,
            unit: e.unitId,
            sessionId: e.sessionId,
            proposalId: e.proposalId,
            candidateId: e.candidateId ?? null,
            items: e.items ?? null,
          })),
        )
        .onConflictDoNothing({ target: events.eventId })
        .returning({ eventId: events.eventId });
      accepted += inserted.length;
    }
    rejected.sort((a, b) => a.index - b.index);
    return { accepted, duplicates: keep.length - accepted, rejected };
  });
}

/** An experiment's stored events in the interchange format (what `assay online` reads), in time order. */
export async function* exportEvents(db: Db, experiment: ExperimentWithArms, pageSize = 5000): AsyncGenerator<OnlineEvent[]> {
  let after: { at: string; eventId: string } | null = null;
  for (;;) {
    const rows: (typeof events.$inferSelect)[] = await db
      .select()
      .from(events)
      .where(and(eq(events.experimentId, experiment.id), after ? sql`(${events.at}, ${events.eventId}) > (${after.at}::timestamptz, ${after.eventId})` : undefined))
      .orderBy(asc(events.at), asc(events.eventId))
      .limit(pageSize);
    if (rows.length === 0) return;
    yield rows.map((r) => {
      const e: OnlineEvent = { eventId: r.eventId, type: r.type as OnlineEvent["type"], at: new Date(r.at).toISOString(), experiment: experiment.key, arm: r.arm, unitId: r.unit, sessionId: r.sessionId, proposalId: r.proposalId };
      if (r.candidateId !== null) e.candidateId = r.candidateId;
      if (r.items !== null) e.items = r.items;
      return e;
    });
    const last = rows[rows.length - 1];
    after = { at: last.at, eventId: last.eventId };
  }
}
