import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../schema";
import { connectionGate } from "./connection-gate";
import { isDatabaseUnavailable } from "./unavailable";

export type Db = PostgresJsDatabase<typeof schema>;
export type Sql = postgres.Sql;

/**
 * A connection attempt (TCP, TLS and authentication) gives up after this long, so that a request
 * during an outage answers within 2 s even when it carries the one probe of a server that accepts
 * connections but does not answer them yet (as a restarting PostgreSQL does).
 */
export const CONNECT_TIMEOUT_SECONDS = 1.5;

/**
 * A pool and its drizzle handle. Connections are opened lazily per query, so after an outage the
 * pool reconnects on the next query. Reconnection backs off in the connection gate, which fails
 * attempts at once between probes, rather than in the driver (whose default delay grows to 20 s and
 * makes every request of an outage wait it out before failing). `statementTimeoutMs` bounds each
 * statement on the server (the web app sets one; the CLI does not: imports and migrations may run long).
 */
export function createDb(
  url: string,
  options: { max?: number; statementTimeoutMs?: number } = {},
): { db: Db; sql: Sql } {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    backoff: () => 0,
    // @ts-expect-error postgres.js supports a socket factory (documented) that its typings omit.
    socket: connectionGate(),
    connection: options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {},
  });
  guardTransactions(sql);
  return { db: drizzle(sql, { schema }), sql };
}

/** A transaction handle is usable wherever a Db is. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Scope = postgres.TransactionSql;
type ScopeFn = (scope: Scope) => unknown;

/**
 * postgres.js 3.4.9 crashes the whole process when a transaction's connection dies: the transaction's
 * callback rejects, the driver then sends `rollback` on the closed connection, and its deferred write
 * dereferences the nulled socket in a `setImmediate` ("Cannot read properties of null (reading
 * 'write')", porsager/postgres#1208, unreleased fix in #1209). A transaction whose connection is lost
 * needs no rollback (the server already discarded it), so on such an error the callback is left
 * pending instead of rejecting, and the caller gets the connection error straight away.
 */
function guardTransactions(sql: Sql) {
  const begin = sql.begin.bind(sql) as (options: string, fn: ScopeFn) => Promise<unknown>;
  const guarded = (options: unknown, fn?: unknown) => {
    const [mode, body] =
      typeof options === "function" ? ["", options as ScopeFn] : [String(options ?? ""), fn as ScopeFn];
    let lost: (error: unknown) => void = () => {};
    const connectionLost = new Promise<never>((_, reject) => (lost = reject));
    return Promise.race([
      begin(
        mode,
        guardScope(body, (error) => lost(error)),
      ),
      connectionLost,
    ]);
  };
  sql.begin = guarded as Sql["begin"];
}

function guardScope(fn: ScopeFn, lost: (error: unknown) => void): ScopeFn {
  return async (scope) => {
    // Savepoints roll back the same way (`rollback to …`), so nested scopes get the same guard.
    const savepoint = scope.savepoint.bind(scope) as (name: unknown, inner?: unknown) => Promise<unknown>;
    scope.savepoint = ((name: unknown, inner?: unknown) =>
      typeof name === "function"
        ? savepoint(guardScope(name as ScopeFn, lost))
        : savepoint(name, guardScope(inner as ScopeFn, lost))) as Scope["savepoint"];
    try {
      return await fn(scope);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      lost(error);
      return new Promise(() => {});
    }
  };
}
