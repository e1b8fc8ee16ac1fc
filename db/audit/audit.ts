import type { DbOrTx } from "../platform/client";
import { auditLog } from "../schema";

/** Who did it: a signed-in user (admin or analyst), or the CLI run on the server's machine. */
export type AuditActor = { id: number; name: string; email: string } | "cli";

/**
 * Appends one entry to the audit log. Call it inside the transaction of the write it records, so an
 * entry exists exactly when the change does. `detail` says what changed; it must never hold a secret,
 * a key, a key hash or a password hash.
 */
export async function recordAudit(
  db: DbOrTx,
  // "visitor": someone not signed in, whose only recorded act is a failed sign-in.
  actor: AuditActor | "visitor",
  action: string,
  target: string,
  detail: Record<string, unknown> = {},
) {
  await db.insert(auditLog).values({
    actorId: typeof actor === "string" ? null : actor.id,
    actorLabel: typeof actor === "string" ? actor : `${actor.name} <${actor.email}>`,
    action,
    target,
    detail,
  });
}
