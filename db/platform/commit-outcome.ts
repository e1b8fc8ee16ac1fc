import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client";
import { isDatabaseUnavailable } from "./unavailable";

/** How long a writer waits for the database to say whether a transaction whose answer was lost committed. */
export const OUTCOME_WAIT_MS = 5_000;

/**
 * Thrown when a transaction's COMMIT may have reached the database but no answer came back, and the
 * database could not be asked within `OUTCOME_WAIT_MS`: the writes may or may not be stored.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(override readonly cause: unknown) {
    super("The database did not say whether the transaction committed.");
  }
}

/**
 * Runs `fn` in a transaction and, if the connection is lost, finds out what became of it instead of
 * guessing. A lost answer to COMMIT does not mean nothing was stored: the server may have committed
 * and then gone down (as during a restart). So the transaction's id is taken first; on a connection
 * lost once `fn` has finished (while committing), `pg_xact_status` says whether it committed (then `fn`'s result is returned, as if the
 * answer had arrived) or not (the error is thrown: nothing was stored). If the database cannot be
 * asked in time, `CommitOutcomeUnknown` is thrown. Errors other than a lost connection are thrown as
 * they are: the transaction rolled back.
 */
export async function transactionWithOutcome<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  let xid: string | null = null;
  let result: { value: T } | null = null;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.execute<{ xid: string }>(sql`select pg_current_xact_id()::text as xid`);
      xid = row.xid;
      const value = await fn(tx);
      result = { value };
      return value;
    });
  } catch (error) {
    // Lost before `fn` finished, COMMIT was never sent: certainly nothing was stored, no need to ask.
    if (xid === null || result === null || !isDatabaseUnavailable(error)) throw error;
    const status = await transactionStatus(db, xid, options.waitMs ?? OUTCOME_WAIT_MS);
    if (status === "committed") return (result as { value: T }).value;
    if (status === "aborted") throw error;
    throw new CommitOutcomeUnknown(error);
  }
}

/**
 * `pg_xact_status` of a transaction, asked until the database answers and the transaction is no
 * longer in progress (a backend may not have noticed its client is gone yet), or null after `waitMs`.
 */
async function transactionStatus(db: Db, xid: string, waitMs: number): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const [row] = await db.execute<{ status: string | null }>(
        sql`select pg_xact_status(${xid}::xid8) as status`,
      );
      if (row.status === "committed" || row.status === "aborted") return row.status;
      // "in progress": the backend is still finishing; null: too old to know (cannot be, it just ran).
      if (row.status === null) return null;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) return null;
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
