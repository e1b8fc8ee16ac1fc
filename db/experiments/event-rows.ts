import type { Tx } from "../platform/client";
import { errorWithCode, sqlState } from "../platform/sql-state";
import { events } from "../schema";
import type { OnlineEvent } from "../../scripts/online/events";

/** An event that passed `validateEvent` and the batch's checks, with its place in the batch and its time. */
export interface CheckedEvent {
  index: number;
  event: OnlineEvent;
  ms: number;
}
type Rejection = { index: number; reason: string };

/**
 * Inserts events inside a savepoint, skipping ids already stored (`accepted` counts the new ones).
 * A refusal for the data (a SQLSTATE class of `DATA_ERROR_CLASSES`) rolls back only the savepoint,
 * and the rows are tried again in halves until the refused events are found: those are rejected with
 * the database's reason, the rest stored. Anything else (connection lost, server down) is thrown, and
 * the caller's transaction stores nothing.
 */
export async function insertEventRows(
  tx: Tx,
  experimentId: number,
  rows: CheckedEvent[],
  rejected: Rejection[],
): Promise<{ accepted: number; refused: number }> {
  try {
    return await tx.transaction(async (savepoint) => ({
      accepted: await insertRows(savepoint, experimentId, rows),
      refused: 0,
    }));
  } catch (error) {
    const code = sqlState(error);
    if (code === null || !DATA_ERROR_CLASSES.includes(code.slice(0, 2))) throw error;
    if (rows.length === 1) {
      const message = (errorWithCode(error) as Error).message;
      rejected.push({
        index: rows[0].index,
        reason: `the database refused this event: ${message} (SQLSTATE ${code})`,
      });
      return { accepted: 0, refused: 1 };
    }
    const half = rows.length >> 1;
    const first = await insertEventRows(tx, experimentId, rows.slice(0, half), rejected);
    const second = await insertEventRows(tx, experimentId, rows.slice(half), rejected);
    return { accepted: first.accepted + second.accepted, refused: first.refused + second.refused };
  }
}

/** Data exception, integrity constraint violation, program limit exceeded (e.g. an index row too large). */
const DATA_ERROR_CLASSES = ["22", "23", "54"];

async function insertRows(tx: Tx, experimentId: number, rows: CheckedEvent[]): Promise<number> {
  const inserted = await tx
    .insert(events)
    .values(
      rows.map(({ event: e }) => ({
        eventId: e.eventId,
        experimentId,
        type: e.type,
        at: e.at,
        arm: e.arm,
        unit: e.unitId,
        sessionId: e.sessionId,
        proposalId: e.proposalId,
        candidateId: e.candidateId ?? null,
        items: e.items ?? null,
        teams: e.teams ?? null,
      })),
    )
    .onConflictDoNothing({ target: [events.experimentId, events.eventId] })
    .returning({ eventId: events.eventId });
  return inserted.length;
}
