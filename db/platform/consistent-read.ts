import type { Db, Tx } from "./client";

/**
 * Runs `read` in one repeatable-read, read-only transaction, so every query in it sees the data as it was
 * at its first query, whatever other connections commit meanwhile: inputs read together come from one
 * state, and a version read with them describes exactly that state. PostgreSQL never fails a read-only
 * transaction for concurrent writes (serialization failures are raised to writers), and its reads block
 * no writer: an expert grading during a freeze neither waits nor makes the freeze fail.
 */
export function readConsistently<T>(db: Db, read: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}
