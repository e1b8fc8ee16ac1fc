import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../platform/client";
import { transactionWithOutcome } from "../platform/commit-outcome";
import { events, experiments, exposures } from "../schema";
import { hashedArmIndex, type ExperimentWithArms } from "./experiments";
import { insertEventRows, type CheckedEvent } from "./event-rows";
import { validateEvent, type OnlineEvent } from "../../scripts/online/events";

export const MAX_FUTURE_MS = 5 * 60 * 1000;
/** Clock skew allowed between a sender and the server: a live event may be dated this much before the start. */
export const START_SKEW_MS = 5 * 60 * 1000;

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; reason: string }[];
}

/**
 * Stores a batch of events for one experiment, exactly once: (experiment, the sender's eventId) is the key
 * and the insert skips ids already stored (a retried event counts as a duplicate, never twice). The
 * batch is one transaction: a server fault stores nothing and the sender can retry it all (a lost
 * answer to its COMMIT is resolved by asking the database, `transactionWithOutcome`, so a batch that
 * was stored is reported stored; if that cannot be known, `CommitOutcomeUnknown` is thrown), while
 * data never fails the batch: each bad event is rejected with its index and reason, the rest stored.
 *
 * Rejected, with a reason, and not stored: an invalid event (`validateEvent`: checked as PostgreSQL
 * will store it), another experiment, an unknown arm, a time more than 5 minutes in the future, a
 * time after the experiment was stopped (late arrivals from before the stop are kept), and, for live
 * logging (`checkArm`): a time more than 5 minutes (`START_SKEW_MS`) before the experiment started
 * (or any time while it is a draft), and an arm that is not the unit's: its stored exposure, or for a
 * unit new to the experiment the arm GrowthBook's hash gives, which is then stored. Historical imports
 * (`checkArm: false`) keep each event's arm as logged; with `checkStart` (what `assay events import`
 * does unless told `--allow-before-start`) an experiment that has started refuses events more than
 * `START_SKEW_MS` before its start as live logging does, while a draft, which has no start yet, takes
 * them (a log brought from elsewhere into an experiment kept as a record). Should PostgreSQL still refuse a row for its
 * data (SQLSTATE classes 22, 23, 54), the events that caused it are found and rejected with the
 * database's reason. Proposal and candidate ids are kept as sent; ids Assay does not know are
 * data-quality findings.
 */
export async function ingestEvents(
  db: Db,
  experiment: ExperimentWithArms,
  batch: readonly unknown[],
  options: { checkArm: boolean; now?: number; checkStart?: boolean },
): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  const rejected: { index: number; reason: string }[] = [];
  const valid: CheckedEvent[] = [];
  const armKeys = new Set(experiment.arms.map((a) => a.key));
  batch.forEach((raw, index) => {
    const result = validateEvent(raw);
    if (!result.ok) return rejected.push({ index, reason: result.problems.join("; ") });
    const e = result.event;
    if (e.experiment !== experiment.key)
      return rejected.push({
        index,
        reason: `unknown experiment ${e.experiment} (this key is for ${experiment.key})`,
      });
    if (!armKeys.has(e.arm))
      return rejected.push({ index, reason: `unknown arm ${e.arm} (arms: ${[...armKeys].join(", ")})` });
    const ms = Date.parse(e.at);
    if (ms > now + MAX_FUTURE_MS)
      return rejected.push({ index, reason: "at is more than 5 minutes in the future" });
    valid.push({ index, event: e, ms });
  });

  return transactionWithOutcome(db, async (tx) => {
    // Read now, not when the key was checked: a stop between the two must not let later events in.
    const [state] = await tx
      .select({
        status: experiments.status,
        startedAt: experiments.startedAt,
        stoppedAt: experiments.stoppedAt,
      })
      .from(experiments)
      .where(eq(experiments.id, experiment.id));
    const rule = options.checkArm ? "live" : options.checkStart ? "historical" : "none";
    let keep = state ? keepWithinRun(experiment.key, state, valid, rejected, rule) : valid;
    if (options.checkArm && keep.length > 0) keep = await keepUnitsArms(tx, experiment, keep, rejected);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < keep.length; i += 1000) {
      const stored = await insertEventRows(tx, experiment.id, keep.slice(i, i + 1000), rejected);
      accepted += stored.accepted;
      refused += stored.refused;
    }
    rejected.sort((a, b) => a.index - b.index);
    return { accepted, duplicates: keep.length - refused - accepted, rejected };
  });
}

/**
 * The events dated within the experiment's run: not after its stop, and for live logging not more
 * than `START_SKEW_MS` before its start (a draft takes no live events); a historical import checked
 * against the start ("historical") applies the same tolerance once the experiment has a start. The
 * others are rejected.
 */
function keepWithinRun(
  key: string,
  state: { status: string; startedAt: Date | null; stoppedAt: Date | null },
  valid: CheckedEvent[],
  rejected: IngestResult["rejected"],
  rule: "live" | "historical" | "none",
): CheckedEvent[] {
  const stop = state.status === "stopped" ? (state.stoppedAt?.getTime() ?? -Infinity) : Infinity;
  const stopped = state.stoppedAt ? ` at ${state.stoppedAt.toISOString()}` : "";
  const start =
    rule === "none" || (rule === "historical" && !state.startedAt)
      ? -Infinity
      : state.startedAt
        ? state.startedAt.getTime() - START_SKEW_MS
        : Infinity;
  const notStarted = state.startedAt
    ? `at is more than 5 minutes before experiment ${key} started (${state.startedAt.toISOString()})` +
      (rule === "historical" ? "; import with --allow-before-start to keep such events" : "")
    : `experiment ${key} has not started; live events are accepted once it runs`;
  const keep: CheckedEvent[] = [];
  for (const v of valid) {
    if (v.ms > stop)
      rejected.push({
        index: v.index,
        reason: `experiment ${key} was stopped${stopped}; events dated after the stop are not accepted`,
      });
    else if (v.ms < start) rejected.push({ index: v.index, reason: notStarted });
    else keep.push(v);
  }
  return keep;
}

/** The events whose arm is their unit's; the others are rejected. Units new to the experiment get the hashed arm, stored. */
async function keepUnitsArms(
  tx: Tx,
  experiment: ExperimentWithArms,
  valid: CheckedEvent[],
  rejected: IngestResult["rejected"],
): Promise<CheckedEvent[]> {
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
  const keep: CheckedEvent[] = [];
  for (const v of valid) {
    const arm = armOf.get(v.event.unitId);
    if (arm === undefined)
      rejected.push({
        index: v.index,
        reason: `unit ${v.event.unitId} is outside the experiment's coverage`,
      });
    else if (arm !== v.event.arm)
      rejected.push({
        index: v.index,
        reason: `unit ${v.event.unitId} is in arm ${arm}, not ${v.event.arm}`,
      });
    else keep.push(v);
  }
  const used = new Set(keep.map((v) => v.event.unitId));
  // Sorted, so concurrent batches take the unique-index locks in one order and cannot deadlock.
  const toStore = [...newExposures]
    .filter(([unit]) => used.has(unit))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (toStore.length)
    await tx
      .insert(exposures)
      .values(toStore.map(([unit, armId]) => ({ experimentId: experiment.id, unit, armId })))
      .onConflictDoNothing();
  return keep;
}

/** An experiment's stored events in the interchange format (what `assay online` reads), in time order. */
export async function* exportEvents(
  db: Db,
  experiment: ExperimentWithArms,
  pageSize = 5000,
): AsyncGenerator<OnlineEvent[]> {
  let after: { at: string; eventId: string } | null = null;
  for (;;) {
    const rows: (typeof events.$inferSelect)[] = await db
      .select()
      .from(events)
      .where(
        and(
          eq(events.experimentId, experiment.id),
          after
            ? sql`(${events.at}, ${events.eventId}) > (${after.at}::timestamptz, ${after.eventId})`
            : undefined,
        ),
      )
      .orderBy(asc(events.at), asc(events.eventId))
      .limit(pageSize);
    if (rows.length === 0) return;
    yield rows.map((r) => {
      const e: OnlineEvent = {
        eventId: r.eventId,
        type: r.type as OnlineEvent["type"],
        at: new Date(r.at).toISOString(),
        experiment: experiment.key,
        arm: r.arm,
        unitId: r.unit,
        sessionId: r.sessionId,
        proposalId: r.proposalId,
      };
      if (r.candidateId !== null) e.candidateId = r.candidateId;
      if (r.items !== null) e.items = r.items;
      if (r.teams !== null) e.teams = r.teams;
      return e;
    });
    const last = rows[rows.length - 1];
    after = { at: last.at, eventId: last.eventId };
  }
}
