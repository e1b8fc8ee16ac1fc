import { createHash } from "node:crypto";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { signInFailures } from "../schema";

/** How a count of failures turns into a wait: free failures, then a delay doubling up to a cap. */
export interface DelayRule {
  free: number;
  baseMs: number;
  capMs: number;
  /** A key with no failure for this long starts afresh. */
  forgetMs: number;
}

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * Failed sign-ins under the keys of one scope, in PostgreSQL so that every server on the database sees
 * the same counts (a guesser spreading attempts over servers meets the same delays). Each failure is
 * one upsert; the clock is the caller's, so the rule reads the same in tests that move it.
 */
export class GrowingDelay {
  constructor(
    readonly scope: string,
    private readonly rule: DelayRule,
  ) {}

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  async retryAfter(db: DbOrTx, key: string, now = Date.now()): Promise<number> {
    const [row] = await db
      .select({ failures: signInFailures.failures, lastAt: signInFailures.lastAt })
      .from(signInFailures)
      .where(and(eq(signInFailures.scope, this.scope), eq(signInFailures.keyHash, hashOf(key))));
    if (!row || now - row.lastAt.getTime() >= this.rule.forgetMs || row.failures < this.rule.free) return 0;
    const delay = Math.min(this.rule.capMs, this.rule.baseMs * 2 ** (row.failures - this.rule.free));
    return Math.max(0, row.lastAt.getTime() + delay - now);
  }

  /** Counts a failure: one more, or the first again when the last is forgotten. */
  async fail(db: DbOrTx, key: string, now = Date.now()) {
    const forgotten = new Date(now - this.rule.forgetMs);
    await db
      .insert(signInFailures)
      .values({ scope: this.scope, keyHash: hashOf(key), failures: 1, lastAt: new Date(now) })
      .onConflictDoUpdate({
        target: [signInFailures.scope, signInFailures.keyHash],
        set: {
          failures: sql`case when ${signInFailures.lastAt} <= ${forgotten.toISOString()}::timestamptz then 1 else ${signInFailures.failures} + 1 end`,
          lastAt: sql`greatest(${signInFailures.lastAt}, excluded.last_at)`,
        },
      });
    await this.prune(db, forgotten);
  }

  async reset(db: DbOrTx, key: string) {
    await db
      .delete(signInFailures)
      .where(and(eq(signInFailures.scope, this.scope), eq(signInFailures.keyHash, hashOf(key))));
  }

  /** Deletes up to 100 forgotten rows of the scope: cheap enough at every failure, and the table stays small. */
  private async prune(db: DbOrTx, forgotten: Date) {
    const old = db
      .select({ keyHash: signInFailures.keyHash })
      .from(signInFailures)
      .where(and(eq(signInFailures.scope, this.scope), lt(signInFailures.lastAt, forgotten)))
      .limit(100);
    await db
      .delete(signInFailures)
      .where(and(eq(signInFailures.scope, this.scope), inArray(signInFailures.keyHash, old)));
  }
}
