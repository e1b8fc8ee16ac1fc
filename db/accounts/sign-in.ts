import { recordAudit } from "../audit/audit";
import type { DbOrTx } from "../platform/client";
import { logSecurityEvent } from "../../scripts/lib/log";

/** Why a sign-in failed, in the words the audit log and the structured log use. */
export type SignInFailure = "unknown email" | "wrong password" | "deactivated" | "password sign-in off";

/**
 * Records a failed sign-in in the audit log (actor "visitor"; the target is the account when it exists)
 * and in the structured log. Neither holds the password, nor the email as typed: a mistyped email can
 * be a password, and an unknown one names nobody.
 */
export async function recordSignInFailure(
  db: DbOrTx,
  failure: { userId: number | null; reason: SignInFailure; address: string },
) {
  const { userId, reason, address } = failure;
  logSecurityEvent("signin.failed", { reason, userId, address });
  await recordAudit(db, "visitor", "user.signin-failed", userId === null ? "" : `user:${userId}`, {
    reason,
    address,
  });
}

/** A refused attempt (throttled) goes to the structured log only: it checked no password and wrote nothing. */
export function logSignInThrottled(scope: string, address: string, waitMs: number) {
  logSecurityEvent("signin.throttled", { scope, address, waitMs });
}
