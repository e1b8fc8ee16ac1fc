import { and, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { sessions, users } from "../schema";
import { publicUserColumns } from "./user-columns";

/**
 * Server-side sign-in sessions, by the SHA-256 of their random id (the cookie's value never reaches the
 * database). Every function takes `now`, so tests move the clock; the database's own clock is not used.
 */

/** How long a session lives: `idleMs` unused, `maxMs` since sign-in. */
export type SessionLifetime = { idleMs: number; maxMs: number };

/** A session is marked as used at most this often, so reading pages does not write a row per request. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Hex characters of the id hash an admin sees to tell sessions apart: not enough to find the row blind. */
const HANDLE_LENGTH = 8;

/** Stores a new session (by its id's hash) that ends `lifetime` after `now`. */
export async function createSession(
  db: DbOrTx,
  input: { idHash: string; userId: number; userAgent: string; ip: string; idToken?: string },
  lifetime: SessionLifetime,
  now: Date,
) {
  const expiresAt = new Date(now.getTime() + lifetime.maxMs);
  await db.insert(sessions).values({
    ...input,
    userAgent: input.userAgent.slice(0, 500),
    ip: input.ip.slice(0, 100),
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(Math.min(now.getTime() + lifetime.idleMs, expiresAt.getTime())),
    expiresAt,
  });
}

/**
 * The active user a live session belongs to, or undefined (unknown, idle too long, past its end, or
 * its user deactivated). Moves the idle expiry forward when the session was last marked over a minute ago.
 */
export async function findSessionUser(db: DbOrTx, idHash: string, lifetime: SessionLifetime, now: Date) {
  const [row] = await db
    .select({
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      user: publicUserColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, idHash),
        eq(users.active, true),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.expiresAt, now),
      ),
    );
  if (!row) return undefined;
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    const idleExpiresAt = new Date(Math.min(now.getTime() + lifetime.idleMs, row.expiresAt.getTime()));
    // The condition on last_seen_at keeps parallel requests of one page from writing the row twice.
    await db
      .update(sessions)
      .set({ lastSeenAt: now, idleExpiresAt })
      .where(
        and(
          eq(sessions.idHash, idHash),
          lte(sessions.lastSeenAt, new Date(now.getTime() - TOUCH_INTERVAL_MS)),
        ),
      );
  }
  return row.user;
}

/** Ends one session (sign-out, or a new sign-in from the same browser). */
/** Deletes a session; answers the provider's ID token it kept (single sign-on), or null. */
export async function deleteSession(db: DbOrTx, idHash: string): Promise<string | null> {
  const [ended] = await db
    .delete(sessions)
    .where(eq(sessions.idHash, idHash))
    .returning({ idToken: sessions.idToken });
  return ended?.idToken ?? null;
}

/** Ends every session of a user; call it inside the transaction of the change that requires it. */
export async function deleteUserSessions(db: DbOrTx, userId: number): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ userId: sessions.userId });
  return ended.length;
}

/** Removes up to `limit` expired sessions: cheap enough to run at every sign-in. */
export async function pruneExpiredSessions(db: DbOrTx, now: Date, limit = 200): Promise<number> {
  const expired = db
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(or(lte(sessions.expiresAt, now), lte(sessions.idleExpiresAt, now)))
    .limit(limit);
  const pruned = await db
    .delete(sessions)
    .where(inArray(sessions.idHash, expired))
    .returning({ userId: sessions.userId });
  return pruned.length;
}

/** What an admin sees of a user's live sessions, newest first: a short handle, never the id hash. */
export async function listUserSessions(db: DbOrTx, userId: number, now: Date) {
  const rows = await db
    .select({
      handle: sql<string>`left(${sessions.idHash}, ${HANDLE_LENGTH})`,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      idleExpiresAt: sessions.idleExpiresAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.idleExpiresAt, now), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt));
  return rows.map(({ idleExpiresAt, expiresAt, ...row }) => ({
    ...row,
    endsAt: idleExpiresAt < expiresAt ? idleExpiresAt : expiresAt,
  }));
}

/** The short handle of an id hash, as `listUserSessions` shows it. */
export const sessionHandle = (idHash: string) => idHash.slice(0, HANDLE_LENGTH);

/** An admin ends one session of a user, found by its handle; returns how many rows ended (0 when already gone). */
export async function endUserSession(
  db: Db,
  actor: AuditActor,
  userId: number,
  handle: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), sql`left(${sessions.idHash}, ${HANDLE_LENGTH}) = ${handle}`))
      .returning({ userId: sessions.userId });
    if (ended.length > 0) await recordAudit(tx, actor, "session.end", `user:${userId}`, { session: handle });
    return ended.length;
  });
}

/** An admin ends every session of a user (signs them out everywhere); returns how many ended. */
export async function endAllUserSessions(db: Db, actor: AuditActor, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await deleteUserSessions(tx, userId);
    await recordAudit(tx, actor, "session.end_all", `user:${userId}`, { sessionsEnded: ended });
    return ended;
  });
}
