import { eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { users } from "../schema";
import { verifyPassword } from "./password";

/** The server's address says who can reach it: only this machine (loopback) or a network. */
export function isLoopback(host: string) {
  return ["127.0.0.1", "::1", "localhost"].includes(host.trim().toLowerCase()) || /^127\./.test(host);
}

export class KnownPasswordError extends Error {}

/**
 * The seeded demo accounts' password is printed at start and written in the docs, so anyone who can
 * reach the server knows it. At every start, for each active account among `emails` that still has
 * it (`known`):
 * - production listening beyond this machine refuses to start (KnownPasswordError, naming the accounts);
 * - any other server listening beyond this machine marks them: their first sign-in must change it;
 * - a server only this machine can reach (loopback) leaves them as they are: a local demo or test run.
 * Returns the accounts it found. Scrypt per account (~50 ms): six demo accounts cost a third of a second.
 */
export async function guardKnownPasswords(
  db: DbOrTx,
  known: { emails: string[]; password: string },
  server: { production: boolean; host: string },
): Promise<string[]> {
  if (known.emails.length === 0) return [];
  const rows = await db
    .select({ id: users.id, email: users.email, hash: users.passwordHash, flagged: users.mustChangePassword })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        known.emails.map((e) => e.toLowerCase()),
      ),
    );
  const exposed = [];
  for (const row of rows) if (await verifyPassword(known.password, row.hash)) exposed.push(row);
  if (exposed.length === 0 || isLoopback(server.host)) return exposed.map((r) => r.email);
  if (server.production)
    throw new KnownPasswordError(
      `Refusing to start in production on ${server.host}: ${exposed.map((r) => r.email).join(", ")} still ${exposed.length === 1 ? "has" : "have"} the demo password that anyone can read. Start once with HOST=127.0.0.1, sign in and change ${exposed.length === 1 ? "it" : "each"} (or deactivate the account), then start again.`,
    );
  for (const row of exposed)
    if (!row.flagged) await db.update(users).set({ mustChangePassword: true }).where(eq(users.id, row.id));
  return exposed.map((r) => r.email);
}
